package javascript

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"sccg/lang"
)

// extractOne extracts src in dialect d and returns its functions by qualname.
func extractOne(t *testing.T, d lang.Dialect, src string) map[string]lang.Function {
	t.Helper()
	res, err := Extract(context.Background(), []byte(src), Options{Dialect: d})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]lang.Function{}
	for _, f := range res.Functions {
		out[f.QualName] = f
	}
	return out
}

// callLine renders what alignment reads of a call, on one line.
func callLine(c lang.Call) string {
	var ps []string
	for _, p := range c.Params {
		s := p.Location + ":" + p.Name
		if p.Literal {
			s += "=" + p.Example
		}
		ps = append(ps, s)
	}
	s := fmt.Sprintf("%s %s %s host=%s path=%s params=[%s]", c.Library, c.Method, c.URL, c.Host, c.Path, strings.Join(ps, " "))
	if c.Callback != "" {
		s += " in=" + c.Callback
	}
	if c.InHelper != "" {
		s += " via=" + strings.Join(c.Via, ">")
	}
	if c.HasRapidAPIKey || c.HasRapidAPIHost {
		s += fmt.Sprintf(" rapidapi=%v/%v", c.HasRapidAPIHost, c.HasRapidAPIKey)
	}
	return s
}

func TestExtractForms(t *testing.T) {
	for _, tc := range []struct {
		name    string
		d       lang.Dialect
		src     string
		want    map[string][]string // qualname → calls
		rejects map[string]string   // qualname → reason
	}{
		{
			name: "fetch with template literal and options",
			src: `const BASE = "https://api.example.com";
async function getUser(id) {
  const res = await fetch(` + "`${BASE}/users/${id}?full=1`" + `, { method: "post", headers: { "X-Api-Key": KEY }, body: JSON.stringify({ name: "a", age }) });
  return res.json();
}`,
			want: map[string][]string{"getUser": {"fetch POST https://api.example.com/users/{id}?full=1 host=api.example.com path=/users/{id} params=[path:id query:full=1 json:name=a json:age header:X-Api-Key]"}},
		},
		{
			name: "window.fetch and concatenation",
			src:  "function load(q) { return window.fetch('https://x.example.com/search?q=' + q).then(r => r.json()); }",
			want: map[string][]string{"load": {"fetch GET https://x.example.com/search?q={q} host=x.example.com path=/search params=[query:q]"}},
		},
		{
			name: "axios verbs, config and url+config",
			src: `import axios from "axios";
export const a = (id) => axios.get("https://api.example.com/items/" + id, { params: { lang: "en" } });
export function b(data) { return axios.post("https://api.example.com/items", { title: data.t, n: 1 }); }
export async function c() { return axios({ method: "delete", url: "https://api.example.com/items/1" }); }
export async function d() { return axios.request({ url: "https://api.example.com/x", params: { q: "s" } }); }
export async function e() { return axios("https://api.example.com/y", { method: "PUT" }); }`,
			want: map[string][]string{
				"a": {"axios GET https://api.example.com/items/{id} host=api.example.com path=/items/{id} params=[path:id query:lang=en]"},
				"b": {"axios POST https://api.example.com/items host=api.example.com path=/items params=[json:title json:n=1]"},
				"c": {"axios DELETE https://api.example.com/items/1 host=api.example.com path=/items/1 params=[]"},
				"d": {"axios GET https://api.example.com/x host=api.example.com path=/x params=[query:q=s]"},
				"e": {"axios PUT https://api.example.com/y host=api.example.com path=/y params=[]"},
			},
		},
		{
			name: "axios instance with baseURL and headers",
			src: `const axios = require("axios");
const client = axios.create({ baseURL: "https://weather.p.rapidapi.com/v1", headers: { "x-rapidapi-host": "weather.p.rapidapi.com", "x-rapidapi-key": process.env.KEY } });
module.exports.forecast = async function (city, days = 3) {
  const { data } = await client.get("/forecast", { params: { city, days } });
  return data;
};`,
			want: map[string][]string{"forecast": {"axios GET https://weather.p.rapidapi.com/v1/forecast host=weather.p.rapidapi.com path=/v1/forecast params=[query:city query:days] rapidapi=true/true"}},
		},
		{
			name: "node-fetch, got and ky",
			src: `import fetch from "node-fetch";
import got from "got";
import ky from "ky";
export async function nf() { return (await fetch("https://a.example.com/v1/x", { method: "POST", body: new URLSearchParams({ k: "v" }) })).json(); }
export async function g1(q) { return got("https://b.example.com/search", { searchParams: { q } }).json(); }
export async function g2() { return got.post("https://b.example.com/items", { json: { a: 1 } }).json(); }
const api = ky.create({ prefixUrl: "https://c.example.com/api" });
export async function k1(id) { return api.get(` + "`users/${id}`" + `, { searchParams: { full: true } }).json(); }
export async function k2() { return ky.delete("https://c.example.com/api/users/7"); }`,
			want: map[string][]string{
				"nf": {"node-fetch POST https://a.example.com/v1/x host=a.example.com path=/v1/x params=[data:k=v]"},
				"g1": {"got GET https://b.example.com/search host=b.example.com path=/search params=[query:q]"},
				"g2": {"got POST https://b.example.com/items host=b.example.com path=/items params=[json:a=1]"},
				"k1": {"ky GET https://c.example.com/api/users/{id} host=c.example.com path=/api/users/{id} params=[path:id query:full=true]"},
				"k2": {"ky DELETE https://c.example.com/api/users/7 host=c.example.com path=/api/users/7 params=[]"},
			},
		},
		{
			name: "superagent chain",
			src: `const request = require("superagent");
function search(term) {
  return request.get("https://d.example.com/search").query({ term, limit: 5 }).set("X-Token", "abc").set({ Accept: "application/json" });
}`,
			want: map[string][]string{"search": {"superagent GET https://d.example.com/search host=d.example.com path=/search params=[query:term query:limit=5 header:X-Token=abc]"}},
		},
		{
			name: "XMLHttpRequest",
			src: `function send(city) {
  var xhr = new XMLHttpRequest();
  xhr.open("GET", "https://e.example.com/weather?city=" + city);
  xhr.setRequestHeader("x-rapidapi-host", "e.example.com");
  xhr.setRequestHeader("x-rapidapi-key", "KEY");
  xhr.onload = function () { console.log(xhr.responseText); };
  xhr.send(null);
}`,
			want: map[string][]string{"send": {"XMLHttpRequest GET https://e.example.com/weather?city={city} host=e.example.com path=/weather params=[query:city] rapidapi=true/true"}},
		},
		{
			name: "jQuery forms",
			src: `function a(q) { $.ajax({ url: "https://f.example.com/find", type: "GET", data: { q: q, n: 3 }, headers: { "X-Key": k } }); }
function b() { return $.getJSON("https://f.example.com/list", { page: 1 }); }
function c(body) { jQuery.post("https://f.example.com/add", { name: body }); }
function d() { $.get("https://f.example.com/ping"); }`,
			want: map[string][]string{
				"a": {"jquery GET https://f.example.com/find host=f.example.com path=/find params=[query:q query:n=3 header:X-Key]"},
				"b": {"jquery GET https://f.example.com/list host=f.example.com path=/list params=[query:page=1]"},
				"c": {"jquery POST https://f.example.com/add host=f.example.com path=/add params=[data:name]"},
				"d": {"jquery GET https://f.example.com/ping host=f.example.com path=/ping params=[]"},
			},
		},
		{
			name: "Node https with url and with options",
			src: `const https = require("node:https");
function a(id) { https.get("https://g.example.com/v2/items/" + id, (res) => { res.on("data", () => {}); }); }
function b(payload) {
  const req = https.request({ hostname: "g.example.com", path: "/v2/items", method: "POST", headers: { "Content-Type": "application/json" } }, (res) => {});
  req.write(JSON.stringify({ title: payload }));
  req.end();
}`,
			want: map[string][]string{
				"a": {"node:https GET https://g.example.com/v2/items/{id} host=g.example.com path=/v2/items/{id} params=[path:id]"},
				"b": {"node:https POST https://g.example.com/v2/items host=g.example.com path=/v2/items params=[json:title]"},
			},
		},
		{
			name: "undici request and fetch",
			src: `import { request, fetch as ufetch } from "undici";
export async function a() { const { body } = await request("https://h.example.com/q", { method: "GET", query: { s: "x" } }); return body.json(); }
export async function b() { return ufetch("https://h.example.com/r"); }`,
			want: map[string][]string{
				"a": {"undici GET https://h.example.com/q host=h.example.com path=/q params=[query:s=x]"},
				"b": {"undici GET https://h.example.com/r host=h.example.com path=/r params=[]"},
			},
		},
		{
			name: "npm request options and unirest",
			src: `const request = require("request");
const unirest = require("unirest");
function a(city) {
  const options = { method: "GET", url: "https://i.p.rapidapi.com/current", qs: { city }, headers: { "X-RapidAPI-Key": "k", "X-RapidAPI-Host": "i.p.rapidapi.com" } };
  request(options, function (error, response, body) { console.log(body); });
}
function b(word) {
  const req = unirest("GET", "https://j.p.rapidapi.com/define");
  req.query({ term: word });
  req.headers({ "x-rapidapi-key": "k", "x-rapidapi-host": "j.p.rapidapi.com" });
  req.end(function (res) { console.log(res.body); });
}
function c() { unirest.post("https://j.p.rapidapi.com/add").header("Accept", "application/json").send({ a: 1 }).end(() => {}); }`,
			want: map[string][]string{
				"a": {"request GET https://i.p.rapidapi.com/current host=i.p.rapidapi.com path=/current params=[query:city] rapidapi=true/true"},
				"b": {"unirest GET https://j.p.rapidapi.com/define host=j.p.rapidapi.com path=/define params=[query:term] rapidapi=true/true"},
				"c": {"unirest POST https://j.p.rapidapi.com/add host=j.p.rapidapi.com path=/add params=[json:a=1]"},
			},
		},
		{
			name: "callbacks belong to the named function",
			d:    lang.DialectTSX,
			src: `import { useEffect, useState } from "react";
export default function Weather({ city }: { city: string }) {
  const [data, setData] = useState(null);
  useEffect(() => {
    fetch("https://k.example.com/w?city=" + city).then((r) => r.json()).then(setData).catch(console.error);
  }, [city]);
  const onClick = () => { setTimeout(() => fetch("https://k.example.com/refresh", { method: "POST" }), 10); };
  return <button onClick={onClick}>{String(data)}</button>;
}`,
			want: map[string][]string{
				// onClick is handed to the button, not called: its request is its own
				"Weather":         {"fetch GET https://k.example.com/w?city={city} host=k.example.com path=/w params=[query:city] in=useEffect"},
				"Weather.onClick": {"fetch POST https://k.example.com/refresh host=k.example.com path=/refresh params=[] in=setTimeout"},
			},
		},
		{
			name: "object methods, exports and class methods",
			d:    lang.DialectTS,
			src: `const BASE = "https://l.example.com";
export const api = {
  async list(): Promise<unknown> { return (await fetch(BASE + "/items")).json(); },
  get: (id: string) => fetch(new URL("/items/" + id, BASE)),
};
exports.handler = async (event: any) => { return fetch(BASE + "/events", { method: "POST", body: JSON.stringify(event) }); };
export class Service {
  private base = "https://m.example.com/api";
  constructor(private readonly token: string) {}
  async user(id: number) {
    const url = new URL(` + "`${this.base}/users/${id}`" + `);
    url.searchParams.append("expand", "all");
    const r = await fetch(url.toString(), { headers: { Authorization: this.token } });
    if (!r.ok) { throw new Error(String(r.status)); }
    return r.json();
  }
}`,
			want: map[string][]string{
				"api.list":     {"fetch GET https://l.example.com/items host=l.example.com path=/items params=[]"},
				"api.get":      {"fetch GET https://l.example.com/items/{id} host=l.example.com path=/items/{id} params=[path:id]"},
				"handler":      {"fetch POST https://l.example.com/events host=l.example.com path=/events params=[]"},
				"Service.user": {"fetch GET https://m.example.com/api/users/{id}?expand=all host=m.example.com path=/api/users/{id} params=[path:id query:expand=all header:Authorization]"},
			},
		},
		{
			name: "top-level script and a broken function",
			src: `fetch("https://n.example.com/boot").then(r => r.json());
document.getElementById("go").addEventListener("click", () => { fetch("https://n.example.com/go"); });
function broken() { fetch("https://n.example.com/x", { method: "GET" ; }`,
			want: map[string][]string{
				"<module>": {"fetch GET https://n.example.com/boot host=n.example.com path=/boot params=[]", "fetch GET https://n.example.com/go host=n.example.com path=/go params=[] in=addEventListener"},
			},
			rejects: map[string]string{"<module>": lang.ReasonTopLevel},
		},
		{
			name: "rapidapi host header stands for an unknown host",
			src:  `async function q(url) { return fetch(url + "/v1/q", { headers: { "X-RapidAPI-Host": "o.p.rapidapi.com", "X-RapidAPI-Key": key } }); }`,
			want: map[string][]string{"q": {"fetch GET {url}/v1/q host=o.p.rapidapi.com path=/v1/q params=[] rapidapi=true/true"}},
		},
		{
			name: "globalThis.fetch, new Headers, FormData body",
			src: `async function upload(file, tag) {
  const headers = new Headers({ "X-Client": "web" });
  headers.append("Authorization", "Bearer " + token);
  const form = new FormData();
  form.append("file", file);
  form.append("tag", tag);
  return globalThis.fetch("https://q.example.com/upload", { method: "POST", headers, body: form });
}`,
			want: map[string][]string{"upload": {"fetch POST https://q.example.com/upload host=q.example.com path=/upload params=[data:file data:tag header:X-Client=web header:Authorization]"}},
		},
		{
			name: "got.extend and ky.extend prefixes",
			src: `import got from "got";
import ky from "ky";
const gh = got.extend({ prefixUrl: "https://r.example.com/v3", headers: { "user-agent": "bot" } });
const kk = ky.extend({ prefixUrl: "https://s.example.com" });
export const repos = (org) => gh.get(` + "`orgs/${org}/repos`" + `).json();
export const tags = () => kk.get("tags", { searchParams: "sort=desc" }).json();`,
			want: map[string][]string{
				"repos": {"got GET https://r.example.com/v3/orgs/{org}/repos host=r.example.com path=/v3/orgs/{org}/repos params=[path:org]"},
				"tags":  {"ky GET https://s.example.com/tags host=s.example.com path=/tags params=[query:sort=desc]"},
			},
		},
		{
			name: "export default, URLSearchParams in a template, $.ajax(url, settings)",
			src: `export default async function search(q, page = 1) {
  const params = new URLSearchParams({ q, page: String(page) });
  const r = await fetch(` + "`https://t.example.com/api/search?${params}`" + `);
  return r.json();
}
export function legacy(id) { return $.ajax("https://t.example.com/api/items/" + id, { method: "DELETE" }); }`,
			want: map[string][]string{
				"search": {"fetch GET https://t.example.com/api/search?q={q}&page={page} host=t.example.com path=/api/search params=[query:q query:page]"},
				"legacy": {"jquery DELETE https://t.example.com/api/items/{id} host=t.example.com path=/api/items/{id} params=[path:id]"},
			},
		},
		{
			name: "instance defaults and params, helper with a destructured argument",
			src: `const axios = require("axios");
const api = axios.create({ baseURL: "https://u.example.com", params: { key: "K" } });
api.defaults.headers.common["X-Team"] = "core";
async function get(path, { id }) { return api.get(path + "/" + id); }
async function user(id) { return get("/users", { id }); }`,
			want: map[string][]string{
				"get":  {"axios GET https://u.example.com/{path}/{id} host=u.example.com path=/{path}/{id} params=[path:path path:id query:key=K header:X-Team=core]"},
				"user": {"axios GET https://u.example.com/users/{id} host=u.example.com path=/users/{id} params=[path:id query:key=K header:X-Team=core] via=get"},
			},
		},
		{
			name: "an injected axios client is guessed, a route registration is not a request",
			src: `import axios from "axios";
import express from "express";
const apiRouter = express.Router();
export async function users(apiClient) { return apiClient.get("/users"); }
apiRouter.get("/x", async (req, res) => res.json({}));
export function service(userService) { return userService.get(1); }`,
			want: map[string][]string{"users": {"axios GET /users host= path=/users params=[]"}},
		},
		{
			name: "cheerio's $ is no jQuery",
			src: `const cheerio = require("cheerio");
const $ = cheerio.load("<a></a>");
function links() { return $.get(0); }
async function page(u) { const html = await (await fetch(u)).text(); const $$ = cheerio.load(html); return $$("a").length; }`,
			want: map[string][]string{"page": {"fetch GET  host= path= params=[]"}},
		},
		{
			name: "Angular HttpClient in a service",
			d:    lang.DialectTS,
			src: `import { Injectable, inject } from "@angular/core";
import { HttpClient, HttpHeaders, HttpParams } from "@angular/common/http";
import { Observable } from "rxjs";
const API = "https://w.example.com/api";
@Injectable({ providedIn: "root" })
export class MovieService {
  private readonly auth = inject(HttpClient);
  constructor(private http: HttpClient) {}
  search(q: string, page = 1): Observable<unknown> {
    const params = new HttpParams().set("query", q).set("page", String(page));
    return this.http.get<unknown>(` + "`${API}/search`" + `, { params, headers: new HttpHeaders({ "X-Key": "k" }) });
  }
  rate(id: string, value: number) { return this.auth.post(API + "/movies/" + id + "/rating", { value }); }
}`,
			want: map[string][]string{
				"MovieService.search": {"@angular/common/http GET https://w.example.com/api/search host=w.example.com path=/api/search params=[query:query query:page header:X-Key=k]"},
				"MovieService.rate":   {"@angular/common/http POST https://w.example.com/api/movies/{id}/rating host=w.example.com path=/api/movies/{id}/rating params=[path:id json:value]"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			if d == "" {
				d = lang.DialectJS
			}
			fns := extractOne(t, d, tc.src)
			for q, want := range tc.want {
				f, ok := fns[q]
				if !ok {
					t.Errorf("no function %s; got %v", q, slices.Sorted(maps.Keys(fns)))
					continue
				}
				var got []string
				for _, c := range f.Facts.Calls {
					got = append(got, callLine(c))
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s calls:\n got %q\nwant %q", q, got, want)
				}
				if r, ok := tc.rejects[q]; ok {
					if f.Status != lang.StatusRejected || f.RejectReason != r {
						t.Errorf("%s: %s %q, want rejected %q", q, f.Status, f.RejectReason, r)
					}
				} else if f.Status != lang.StatusCandidate {
					t.Errorf("%s rejected: %s\n%s", q, f.RejectReason, f.Code)
				}
			}
			for q := range fns {
				if _, ok := tc.want[q]; !ok {
					t.Errorf("unexpected function %s", q)
				}
			}
		})
	}
}

func TestCodeHashIgnoresCommentsQuotesAndSemicolons(t *testing.T) {
	a := "const u = 'https://x.example.com';\n// note\nexport async function f() { return fetch(u); }\n"
	b := "const u = \"https://x.example.com\"\n\nexport async function f() {\n  /* other note */\n  return fetch(u)\n}\n"
	c := "const u = 'https://y.example.com';\nexport async function f() { return fetch(u); }\n"
	hash := func(src string) string {
		fns := extractOne(t, lang.DialectJS, src)
		return fns["f"].CodeHash
	}
	if hash(a) != hash(b) {
		t.Error("the same code with other comments, quotes and semicolons hashes differently")
	}
	if hash(a) == hash(c) {
		t.Error("different URLs hash the same")
	}
}

func TestAxiosURLVariable(t *testing.T) {
	fns := extractOne(t, lang.DialectJS, `const axios = require("axios");
const URL_ = "https://p.example.com/v1/status";
async function status() { const r = await axios(URL_); return r.data; }`)
	if c := fns["status"].Facts.Calls; len(c) != 1 || c[0].URL != "https://p.example.com/v1/status" || c[0].Method != "GET" {
		t.Errorf("calls %+v", c)
	}
}
