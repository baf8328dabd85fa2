package python

import "testing"

func TestEffectiveLOC(t *testing.T) {
	tests := []struct {
		name string
		code string
		want int
	}{
		{"blank and comments", "import os\n\n# note\n  # indented note\nx = 1\n", 2},
		{"one-line docstring", "def f():\n    \"\"\"Do it.\"\"\"\n    return 1\n", 2},
		{"multi-line docstring", "def f():\n    '''Do\n    it.\n    '''\n    return 1\n", 2},
		{"assigned triple-quoted string counts", "q = \"\"\"a\nb\"\"\"\n", 2},
		{"raw docstring prefix", "def f():\n    r\"\"\"x\\d\"\"\"\n    pass", 2},
		{"empty", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := EffectiveLOC(tc.code); got != tc.want {
				t.Errorf("EffectiveLOC = %d, want %d", got, tc.want)
			}
		})
	}
}
