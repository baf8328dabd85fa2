package jsbox

import (
	"slices"
	"strings"
	"testing"
)

func TestFacts(t *testing.T) {
	tests := []struct {
		name, lang, code    string
		syntax              bool
		errPart             string
		imports, defs, free []string
		hasTry, hasStatus   bool
	}{
		{name: "broken JavaScript", lang: "javascript", code: "function f( {", errPart: "SyntaxError"},
		{name: "type annotations are no JavaScript", lang: "javascript", code: "function f(x: number) { return x }", errPart: "SyntaxError"},
		{name: "TypeScript", lang: "typescript", syntax: true, code: `
import axios from 'axios';
import type { AxiosResponse } from 'axios';
interface Q { q: string }
export async function find(q: Q): Promise<AxiosResponse> { return axios.get('https://x.example.com', { params: q }); }`,
			imports: []string{"axios"}, defs: []string{"find"}},
		{name: "TSX", lang: "typescript", syntax: true, code: `
import React from 'react';
export const View = ({ id }: { id: string }) => <div>{id}</div>;
export async function load(id: string) { const r = await fetch('/api/' + id); if (r.status === 404) return null; return r.json(); }`,
			imports: []string{"react"}, defs: []string{"View", "load"}, hasStatus: true},
		{name: "require, dynamic import, catch", lang: "javascript", syntax: true, code: `
const got = require('got');
const { join } = require('node:path');
async function f(u) { const m = await import('./helper.js'); return got(u).catch(() => null); }`,
			imports: []string{"got", "node:path", "./helper.js"}, defs: []string{"f"}, hasTry: true},
		{name: "class and object methods, exports", lang: "javascript", syntax: true, code: `
class Client { constructor(key) { this.key = key } async get(p) { try { return await fetch(p) } catch (e) { return null } } static make() {} }
const api = { list(limit) {}, remove: async (id) => {} , base: 'x' };
exports.handler = async function (event) { const { statusCode } = event; };
module.exports.other = (a) => a;`,
			defs: []string{"Client.get", "Client.make", "api.list", "api.remove", "handler", "other"}, hasTry: true, hasStatus: true},
		{name: "free names", lang: "javascript", syntax: true, code: `
function f() { if (typeof window !== 'undefined') {} return fetch(API_BASE + '/x', { headers: { k: apiKey } }).then(r => r.ok); }
counter = 1;`,
			defs: []string{"f"}, free: []string{"API_BASE", "apiKey", "window"}, hasTry: false, hasStatus: true},
		{name: "top-level await", lang: "typescript", syntax: true, code: "import axios from 'axios';\nexport async function f(q: string) { return axios.get('https://x.example.com/' + q); }\nconst r = await f('a');\nconsole.log(r.status);",
			imports: []string{"axios"}, defs: []string{"f"}, hasStatus: true},
		{name: "validateStatus", lang: "javascript", syntax: true, code: `axios.get('https://x.example.com', { validateStatus: () => true })`,
			free: []string{"axios"}, hasStatus: true},
		{name: "newer syntax lowered", lang: "javascript", syntax: true, code: `
class A { #k = 1; static n = 2; get k() { return this.#k } }
const f = async (o) => o?.a?.b ?? (o.c ||= 3);
async function* g() { for await (const x of []) yield x }`,
			defs: []string{"f", "g"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := inProcess(t, tc.lang, tc.code, "none")
			f := res.Facts
			if f.Syntax != tc.syntax {
				t.Fatalf("syntax %v (%s), want %v", f.Syntax, f.Error, tc.syntax)
			}
			if !strings.Contains(f.Error, tc.errPart) {
				t.Errorf("error %q, want it to mention %q", f.Error, tc.errPart)
			}
			if !tc.syntax || f.Error != "" {
				return
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{{"imports", f.Imports, tc.imports}, {"defs", f.Defs, tc.defs}, {"free", f.Free, tc.free}} {
				g, w := slices.Clone(c.got), slices.Clone(c.want)
				slices.Sort(g)
				slices.Sort(w)
				if !slices.Equal(g, w) {
					t.Errorf("%s %q, want %q", c.what, c.got, c.want)
				}
			}
			if f.HasTry != tc.hasTry || f.HasStatusCheck != tc.hasStatus {
				t.Errorf("has_try %v has_status_check %v, want %v %v", f.HasTry, f.HasStatusCheck, tc.hasTry, tc.hasStatus)
			}
		})
	}
}
