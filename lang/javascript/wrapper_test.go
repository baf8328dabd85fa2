package javascript

import (
	"testing"

	"sccg/lang"
)

// TestPathFrom checks which requests take their whole path, or whole URL, from a
// parameter of the function the facts are about (a generic wrapper), library by
// library and URL shape by URL shape, and which only take a segment or a value.
func TestPathFrom(t *testing.T) {
	const head = `import axios from 'axios';
import got from 'got';
import ky from 'ky';
import superagent from 'superagent';
import https from 'node:https';
import { request } from 'undici';
import urlJoin from 'url-join';
const BASE = 'https://api-football-v1.p.rapidapi.com/v3';
const HOST = 'api-football-v1.p.rapidapi.com';
const USERS = BASE + '/users/';
const H = { 'x-rapidapi-host': HOST };
const api = axios.create({ baseURL: BASE, headers: H });
const kyClient = ky.create({ prefixUrl: 'https://api.example.test' });
`
	tests := []struct {
		name, src string
		want      map[string]string // qualname → PathFrom of its one call
	}{
		{"fetch after a base constant", `async function getJson(path) { const r = await fetch(BASE + path, { headers: H }); return r.json(); }`,
			map[string]string{"getJson": "path"}},
		{"the whole URL to axios.get", `export const get = (url) => axios.get(url, { headers: H });`,
			map[string]string{"get": "url"}},
		{"a template literal with the query in params", "function request(endpoint, params) { return axios.get(`${BASE}${endpoint}`, { params }); }",
			map[string]string{"request": "endpoint"}},
		{"a slash between base and parameter", "function segment(endpoint) { return fetch(`${BASE}/${endpoint}`); }",
			map[string]string{"segment": "endpoint"}},
		{"axios(config) with url", `function call(url, method) { return axios({ method, url: BASE + url, headers: H }); }`,
			map[string]string{"call": "url"}},
		{"axios.request(config) from a variable", `function req(path) { const options = { method: 'GET', url: BASE + path }; return axios.request(options); }`,
			map[string]string{"req": "path"}},
		{"a const bound to the URL", `async function bound(path) { const url = BASE + path; return (await fetch(url)).json(); }`,
			map[string]string{"bound": "path"}},
		{"new URL(param, BASE)", `function joined(path) { return fetch(new URL(path, BASE)); }`,
			map[string]string{"joined": "path"}},
		{"an instance with baseURL", `function apiGet(path) { return api.get(path); }`,
			map[string]string{"apiGet": "path"}},
		{"a ky instance with prefixUrl", `function kyGet(path) { return kyClient.get(path).json(); }`,
			map[string]string{"kyGet": "path"}},
		{"got, superagent, jQuery, https, undici, XHR", `function g(path) { return got(BASE + path).json(); }
function s(path) { return superagent.get(BASE + path).set(H); }
function j(path) { return $.getJSON(BASE + path); }
function n(path, cb) { return https.get(BASE + path, cb); }
function o(path) { return https.request({ hostname: HOST, path, method: 'GET' }); }
function u(path) { return request(BASE + path); }
function x(path) { const xhr = new XMLHttpRequest(); xhr.open('GET', BASE + path); xhr.send(); }`,
			map[string]string{"g": "path", "s": "path", "j": "path", "n": "path", "o": "path", "u": "path", "x": "path"}},
		{"a destructured parameter", `const byOpts = ({ path, q }) => fetch(BASE + path);`,
			map[string]string{"byOpts": "path"}},
		{"a caller passing a concrete path, and one passing its own parameter on",
			`async function getJson(path) { const r = await fetch(BASE + path, { headers: H }); return r.json(); }
function live() { return getJson('/fixtures?live=all'); }
function passOn(p) { return getJson(p); }`,
			map[string]string{"getJson": "path", "live": "", "passOn": "p"}},
		{"a class's generic method and the method calling it", `class Client {
  constructor() { this.base = BASE; }
  _get(path) { return fetch(this.base + path); }
  repo(owner, name) { return this._get(` + "`/repos/${owner}/${name}`" + `); }
}`,
			map[string]string{"Client._get": "path", "Client.repo": ""}},

		{"a concrete path with an id", `function user(id) { return fetch(BASE + '/users/' + id); }`,
			map[string]string{"user": ""}},
		{"a segment after a collection", "function userT(id) { return axios.get(`${BASE}/users/${id}`); }",
			map[string]string{"userT": ""}},
		{"a collection constant", `function member(id) { return fetch(USERS + id); }`,
			map[string]string{"member": ""}},
		{"a query value", `function search(q) { return fetch(BASE + '/search?q=' + q); }`,
			map[string]string{"search": ""}},
		{"a query after the parameter", `function withKey(path) { return fetch(BASE + path + '?key=1'); }`,
			map[string]string{"withKey": "path"}},
		{"a path after the parameter", `function items(path) { return fetch(BASE + path + '/items'); }`,
			map[string]string{"items": ""}},
		{"two parameters", "function two(owner, repo) { return fetch(`${BASE}/${owner}/${repo}`); }",
			map[string]string{"two": ""}},
		{"an encoded component", `function city(name) { return fetch(BASE + '/' + encodeURIComponent(name)); }`,
			map[string]string{"city": ""}},
		{"joined segments", `function joinedId(id) { return fetch(urlJoin(BASE, 'teams', id)); }`,
			map[string]string{"joinedId": ""}},
		{"a URL-like default", `function withDefault(url = 'https://api.example.test/meta') { return fetch(url); }`,
			map[string]string{"withDefault": ""}},
		{"a callback's parameter is none of the function's", `function all(paths) { return Promise.all(paths.map((p) => fetch(BASE + p))); }`,
			map[string]string{"all": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fns := extractOne(t, lang.DialectJS, head+tt.src)
			for q, want := range tt.want {
				f, ok := fns[q]
				if !ok {
					t.Errorf("%s was not extracted", q)
					continue
				}
				if len(f.Facts.Calls) != 1 {
					t.Errorf("%s: %d calls, want 1", q, len(f.Facts.Calls))
					continue
				}
				if c := f.Facts.Calls[0]; c.PathFrom != want {
					t.Errorf("%s (URL %q): PathFrom = %q, want %q", q, c.URL, c.PathFrom, want)
				}
			}
		})
	}
}

// TestPathFromTypeScript checks a typed wrapper and a typed caller.
func TestPathFromTypeScript(t *testing.T) {
	src := `const BASE: string = 'https://api.example.test/v1';
export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(` + "`${BASE}${path}`" + `, init);
  return (await res.json()) as T;
}
export function team(id: number): Promise<unknown> {
  return getJson(` + "`/teams?id=${id}`" + `);
}`
	fns := extractOne(t, lang.DialectTS, src)
	for q, want := range map[string]string{"getJson": "path", "team": ""} {
		f, ok := fns[q]
		if !ok || len(f.Facts.Calls) != 1 {
			t.Fatalf("%s: extracted %v", q, ok)
		}
		if got := f.Facts.Calls[0].PathFrom; got != want {
			t.Errorf("%s: PathFrom = %q, want %q", q, got, want)
		}
	}
}
