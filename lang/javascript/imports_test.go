package javascript

import (
	"context"
	"slices"
	"testing"

	"sccg/lang"
)

func TestImportedPackages(t *testing.T) {
	src := `import React, { useState } from 'react';
import type { AxiosInstance } from "axios";
import fp from 'lodash/fp';
import { Button } from '@mui/material/Button';
import './styles.css';
import { api } from '../api';
const fs = require('node:fs/promises');
const https = require("https");
export { helper } from '@scope/pkg/sub';
// import nope from 'commented-out';
const s = "require('in-a-string')";
async function later() { const { default: ky } = await import('ky'); }
`
	for _, d := range []lang.Dialect{lang.DialectTS, lang.DialectTSX} {
		got, err := ImportedPackages(context.Background(), d, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"react", "axios", "lodash", "@mui/material", "fs", "https", "@scope/pkg", "ky"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", d, got, want)
		}
	}
}

func TestBuiltinAndPackageName(t *testing.T) {
	for spec, want := range map[string]bool{"fs": true, "node:fs": true, "fs/promises": true, "node:test": true, "test": false,
		"https": true, "node:https": true, "axios": false, "node-fetch": false, "url": true, "worker_threads": true} {
		if IsBuiltin(spec) != want {
			t.Errorf("IsBuiltin(%q) = %v, want %v", spec, !want, want)
		}
	}
	cur, legacy := Frontend{}.Builtin("node:crypto")
	if !cur || legacy {
		t.Errorf("Builtin(node:crypto) = %v %v", cur, legacy)
	}
	for spec, want := range map[string]string{"lodash/fp": "lodash", "@scope/pkg/sub": "@scope/pkg", "axios": "axios", "@types/node": "@types/node"} {
		if got := packageName(spec); got != want {
			t.Errorf("packageName(%q) = %q, want %q", spec, got, want)
		}
	}
}

func TestImportsFactsSplit(t *testing.T) {
	src := `import axios from 'axios';
import { get } from 'lodash/fp';
import { token } from '@/lib/auth';
import cfg from 'config/settings';
import { log } from './log';
import path from 'node:path';
export async function load(id) {
  log(path.join('a', id));
  return axios.get('https://api.example.com/x/' + get('k', cfg) + id, { headers: { Authorization: token } });
}`
	res, err := Extract(context.Background(), []byte(src), Options{Dialect: lang.DialectTS, Path: "src/pages/load.ts",
		RepoPaths: []string{"src/lib/auth.ts", "src/config/settings.ts", "src/pages/log.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Functions) != 1 {
		t.Fatalf("%d functions", len(res.Functions))
	}
	im := res.Functions[0].Facts.Imports
	if !slices.Equal(im.Stdlib, []string{"path"}) || !slices.Equal(im.ThirdParty, []string{"axios", "lodash"}) ||
		!slices.Equal(im.Local, []string{"./log", "@/lib/auth", "config/settings"}) {
		t.Errorf("imports %+v", im)
	}
}

func TestEffectiveLOCAndCommentedRequests(t *testing.T) {
	code := "/**\n * Docs.\n */\nfunction f() {\n  // a comment\n  const re = /\\/\\/not-a-comment/; /* inline */\n" +
		"  const s = `line\n// inside a template\n${x /* in code */}`;\n\n  return 1; // trailing\n}\n"
	if got := EffectiveLOC(code); got != 7 {
		t.Errorf("EffectiveLOC = %d, want 7:\n%s", got, stripComments(code))
	}
	src := "function f() {\n  // const r = await fetch('https://x.example.com/a');\n  /* axios.get(url)\n  */\n  // just words about fetch\n  return 1;\n}\n"
	lines, err := CommentedRequests(context.Background(), lang.DialectJS, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lines, []int{2, 3}) {
		t.Errorf("commented requests on lines %v, want [2 3]", lines)
	}
}
