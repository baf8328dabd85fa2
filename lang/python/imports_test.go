package python

import (
	"context"
	"reflect"
	"testing"
)

func TestImportedModules(t *testing.T) {
	tests := []struct {
		name string
		code string
		want []string
	}{
		{"plain and dotted", "import os.path\nimport requests", []string{"os", "requests"}},
		{"list with alias and comment", "import json as j, sys  # std\n", []string{"json", "sys"}},
		{"from import", "from datetime import datetime\nfrom django.http import JsonResponse", []string{"datetime", "django"}},
		{"relative left out", "from . import x\nfrom .mod import y\nimport requests", []string{"requests"}},
		{"once each", "import requests\nimport requests", []string{"requests"}},
		{"inside a function and a try", "def f():\n    try:\n        import ujson as json\n    except ImportError:\n        import json\n", []string{"ujson", "json"}},
		{"future", "from __future__ import annotations\nimport os", []string{"__future__", "os"}},
		{"in a string is no import", "x = 'import foo'\ns = \"\"\"\nimport bar\n\"\"\"", nil},
		{"in a comment is no import", "# import foo\nimport os", []string{"os"}},
		{"parenthesized from import", "from typing import (\n    List,\n    Dict,\n)", []string{"typing"}},
		{"broken file keeps what parses", "import requests\ndef f(:\n", []string{"requests"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ImportedModules(context.Background(), []byte(tc.code))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ImportedModules = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCommentedRequests(t *testing.T) {
	code := "import requests\n\ndef f(city):\n    # r = requests.get('https://x.p.rapidapi.com/a')\n    # make the request\n    return None\n"
	got, err := CommentedRequests(context.Background(), []byte(code))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []int{4}) {
		t.Errorf("CommentedRequests = %v, want [4]", got)
	}
}
