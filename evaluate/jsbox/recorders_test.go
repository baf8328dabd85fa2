package jsbox

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"sccg/evaluate/sandbox"
)

var (
	testEngineOnce sync.Once
	testEngine     *engine
	testEngineErr  error
)

// inProcess runs one completion in this process (no worker): for tests of what
// the harness records, not of containment.
func inProcess(t testing.TB, lang, code, function string) sandbox.Result {
	t.Helper()
	testEngineOnce.Do(func() { testEngine, testEngineErr = newEngine() })
	if testEngineErr != nil {
		t.Fatal(testEngineErr)
	}
	res, _ := testEngine.run(job{Lang: lang, Code: code, Function: function, TimeoutMS: 2000})
	return res
}

// want is one expected request: method, URL, and optionally keys and headers.
type want struct {
	lib, method, url string
	params, json     []string
	data             string // a string body, or keys joined by ","
	headers          map[string]string
}

func TestRecorders(t *testing.T) {
	tests := []struct {
		name, lang, code, fn string
		want                 want
	}{
		{"fetch with URL and searchParams", "javascript", `
async function search(q) {
  const u = new URL('https://api.example.com/v1/search');
  u.searchParams.set('q', q);
  u.searchParams.append('limit', '10');
  const r = await fetch(u, {headers: {'X-RapidAPI-Key': 'secret', 'X-RapidAPI-Host': 'api.example.com'}});
  if (!r.ok) throw new Error(r.status);
  return r.json();
}`, "search", want{lib: "fetch", method: "GET", url: "https://api.example.com/v1/search?q=London&limit=10",
			headers: map[string]string{"x-rapidapi-key": "<redacted>", "x-rapidapi-host": "api.example.com"}}},
		{"fetch POST JSON body and Request", "typescript", `
export async function create(name: string): Promise<any> {
  const req = new Request('https://api.example.com/items', {method: 'POST', body: JSON.stringify({name, tags: []}), headers: new Headers({'Content-Type': 'application/json'})});
  const res = await fetch(req);
  return await res.json();
}`, "create", want{lib: "fetch", method: "POST", url: "https://api.example.com/items", data: `{"name":"test","tags":[]}`}},
		{"axios config form", "javascript", `
const axios = require('axios');
const options = {method: 'GET', url: 'https://weather.p.rapidapi.com/current', params: {city: 'x', units: 'metric'}, headers: {'x-rapidapi-key': 'k'}};
async function run() { const {data} = await axios.request(options); return data; }`, "run",
			want{lib: "axios", method: "GET", url: "https://weather.p.rapidapi.com/current", params: []string{"city", "units"}}},
		{"axios(url, config) post", "javascript", `
import axios from 'axios';
export const send = (payload) => axios('https://api.example.com/send', {method: 'post', data: {to: 1, body: 2}});`, "send",
			want{lib: "axios", method: "POST", url: "https://api.example.com/send", json: []string{"to", "body"}}},
		{"axios instance with baseURL and interceptor", "typescript", `
import axios, { AxiosInstance } from 'axios';
const client: AxiosInstance = axios.create({ baseURL: 'https://api.example.com/v2', headers: { Authorization: 'Bearer t' }, params: { lang: 'en' } });
client.interceptors.request.use((c) => { c.headers = { ...c.headers, 'X-Trace': '1' }; return c; });
class Api {
  constructor(private key: string) {}
  async users(page: number) { const r = await client.get('/users', { params: { page } }); return r.data; }
}`, "Api.users", want{lib: "axios", method: "GET", url: "https://api.example.com/v2/users", params: []string{"lang", "page"},
			headers: map[string]string{"Authorization": "<redacted>", "X-Trace": "1"}}},
		{"node-fetch default import", "javascript", `
import fetch from 'node-fetch';
export default async function (city) { const r = await fetch('https://api.example.com/q?city=' + encodeURIComponent(city)); return r.json(); }`, "default",
			want{lib: "node-fetch", method: "GET", url: "https://api.example.com/q?city=London"}},
		{"got with searchParams and json", "javascript", `
const got = require('got');
module.exports.lookup = async function lookup(id) {
  return got.post('https://api.example.com/lookup', { searchParams: { id }, json: { deep: true } }).json();
};`, "lookup", want{lib: "got", method: "POST", url: "https://api.example.com/lookup", params: []string{"id"}, json: []string{"deep"}}},
		{"superagent chain", "javascript", `
const request = require('superagent');
function translate(text) {
  return request.post('https://api.example.com/translate').set('X-Api-Key', 'k').query({ from: 'en' }).send({ q: text }).then(r => r.body);
}`, "translate", want{lib: "superagent", method: "POST", url: "https://api.example.com/translate", params: []string{"from"}, json: []string{"q"},
			headers: map[string]string{"X-Api-Key": "<redacted>"}}},
		{"ky with prefixUrl", "typescript", `
import ky from 'ky';
const api = ky.create({ prefixUrl: 'https://api.example.com' });
export async function get(symbol: string) { return api.get('quote', { searchParams: { symbol } }).json(); }`, "get",
			want{lib: "ky", method: "GET", url: "https://api.example.com/quote", params: []string{"symbol"}}},
		{"XMLHttpRequest", "javascript", `
function load(cb) {
  var xhr = new XMLHttpRequest();
  xhr.open('GET', 'https://api.example.com/data');
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.onreadystatechange = function () { if (xhr.readyState === 4 && xhr.status === 200) cb(JSON.parse(xhr.responseText)); };
  xhr.send();
}`, "load", want{lib: "xhr", method: "GET", url: "https://api.example.com/data", headers: map[string]string{"Accept": "application/json"}}},
		{"jQuery ajax as a global", "javascript", `
function news(topic) {
  $.ajax({ url: 'https://api.example.com/news', type: 'GET', data: { topic: topic, page: 1 }, headers: { 'X-RapidAPI-Key': 'x' }, success: function (d) { console.log(d); } });
}`, "news", want{lib: "jquery", method: "GET", url: "https://api.example.com/news", params: []string{"topic", "page"}}},
		{"jQuery getJSON", "javascript", `
function f() { return $.getJSON('https://api.example.com/j', { a: 1 }, function () {}); }`, "f",
			want{lib: "jquery", method: "GET", url: "https://api.example.com/j", params: []string{"a"}}},
		{"https.request with options", "javascript", `
const https = require('https');
function call(body) {
  const options = { method: 'POST', hostname: 'api.example.com', port: null, path: '/v1/convert?from=USD', headers: { 'x-rapidapi-host': 'api.example.com', 'content-type': 'application/json' } };
  const req = https.request(options, function (res) { const chunks = []; res.on('data', c => chunks.push(c)); res.on('end', () => console.log(Buffer.concat(chunks).toString())); });
  req.write(JSON.stringify({ amount: 1 }));
  req.end();
}`, "call", want{lib: "https", method: "POST", url: "https://api.example.com/v1/convert?from=USD", data: `{"amount":1}`}},
		{"http.get url", "javascript", `
const http = require('node:http');
const get = (u) => new Promise((ok) => http.get('http://api.example.com/ping', (res) => { res.on('end', ok); }));`, "get",
			want{lib: "http", method: "GET", url: "http://api.example.com/ping"}},
		{"undici request", "javascript", `
const { request } = require('undici');
async function q() { const { statusCode, body } = await request('https://api.example.com/u', { method: 'PUT', body: JSON.stringify({ x: 1 }) }); return body.json(); }`, "q",
			want{lib: "undici", method: "PUT", url: "https://api.example.com/u", data: `{"x":1}`}},
		{"undici fetch", "javascript", `
import { fetch } from 'undici';
export async function f() { return (await fetch('https://api.example.com/f')).json(); }`, "f",
			want{lib: "undici", method: "GET", url: "https://api.example.com/f"}},
		{"object method", "javascript", `
const api = { base: 'https://api.example.com', async list(limit) { return fetch(this.base + '/list?limit=' + limit); } };`, "api.list",
			want{lib: "fetch", method: "GET", url: "https://api.example.com/list?limit=1"}},
		{"promise chain with timers", "javascript", `
function delayed() {
  return new Promise(r => setTimeout(r, 5000)).then(() => fetch('https://api.example.com/late')).then(r => r.json()).catch(e => null);
}`, "delayed", want{lib: "fetch", method: "GET", url: "https://api.example.com/late"}},
		{"env key and btoa", "javascript", `
const key = process.env.API_KEY || 'none';
async function auth() { return fetch('https://api.example.com/me', { headers: { Authorization: 'Basic ' + btoa('u:' + key) } }); }`, "auth",
			want{lib: "fetch", method: "GET", url: "https://api.example.com/me", headers: map[string]string{"authorization": "<redacted>"}}},
		{"destructured parameter", "typescript", `
type Opts = { city: string; units?: string };
export async function weather({ city, units = 'metric' }: Opts) {
  return fetch(` + "`https://api.example.com/w?q=${city}&units=${units}`" + `);
}`, "weather", want{lib: "fetch", method: "GET", url: "https://api.example.com/w?q=London&units=metric"}},
		{"unirest as a snippet writes it", "javascript", `
const unirest = require('unirest');
function go() {
  const req = unirest('GET', 'https://api.example.com/v1/list');
  req.query({ page: '1', sort: 'new' });
  req.headers({ 'X-RapidAPI-Key': 'SIGN-UP-FOR-KEY', 'X-RapidAPI-Host': 'api.example.com', useQueryString: true });
  req.end(function (res) { if (res.error) throw new Error(res.error); console.log(res.body); });
}`, "go", want{lib: "unirest", method: "GET", url: "https://api.example.com/v1/list", params: []string{"page", "sort"},
			headers: map[string]string{"X-RapidAPI-Key": "<redacted>", "X-RapidAPI-Host": "api.example.com"}}},
		{"unirest post with send", "javascript", `
var unirest = require("unirest");
var req = unirest("POST", "https://api.example.com/v1/convert");
req.type("json");
req.send({ "from": "USD", "to": "EUR" });
req.end(function (res) {});`, "", want{lib: "unirest", method: "POST", url: "https://api.example.com/v1/convert", json: []string{"from", "to"}}},
		{"fetch snippet awaiting at the top level", "javascript", `
const url = 'https://api.example.com/v1/items?limit=5';
const options = { method: 'GET', headers: { 'x-rapidapi-key': 'KEY', 'x-rapidapi-host': 'api.example.com' } };
try {
	const response = await fetch(url, options);
	const result = await response.text();
	console.log(result);
} catch (error) {
	console.error(error);
}`, "", want{lib: "fetch", method: "GET", url: "https://api.example.com/v1/items?limit=5"}},
		{"axios snippet awaiting at the top level, a function named", "javascript", `
import axios from 'axios';
export async function fetchItems(category) {
  const response = await axios.request({ method: 'GET', url: 'https://api.example.com/v1/items', params: { category } });
  return response.data;
}
const items = await fetchItems('books');`, "fetchItems", want{lib: "axios", method: "GET", url: "https://api.example.com/v1/items", params: []string{"category"}}},
		{"request (legacy) with qs", "javascript", `
var request = require('request');
function r(cb) { request({ method: 'GET', url: 'https://api.example.com/r', qs: { s: 'x' }, headers: { 'x-rapidapi-key': 'k' } }, function (e, res, body) { cb(body); }); }`, "r",
			want{lib: "request", method: "GET", url: "https://api.example.com/r", params: []string{"s"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := inProcess(t, tc.lang, tc.code, tc.fn)
			if res.Status != sandbox.StatusOK || len(res.Requests) == 0 {
				t.Fatalf("status %s (%s), %d requests; console: %s", res.Status, res.Reason, len(res.Requests), res.Stderr)
			}
			q := res.Requests[0]
			if q.Lib != tc.want.lib || q.Method != tc.want.method || q.URL != tc.want.url {
				t.Errorf("got %s %s %s, want %s %s %s", q.Lib, q.Method, q.URL, tc.want.lib, tc.want.method, tc.want.url)
			}
			checkKeys(t, "params", q.Params, tc.want.params)
			checkKeys(t, "json", q.JSON, tc.want.json)
			if tc.want.data != "" {
				var s string
				var ks []string
				if json.Unmarshal(q.Data, &s) != nil && json.Unmarshal(q.Data, &ks) == nil {
					s = strings.Join(ks, ",")
				}
				if s != tc.want.data {
					t.Errorf("data %s, want %q", q.Data, tc.want.data)
				}
			}
			for k, v := range tc.want.headers {
				if q.Headers[k] != v {
					t.Errorf("header %s = %q, want %q (all: %v)", k, q.Headers[k], v, q.Headers)
				}
			}
		})
	}
}

func checkKeys(t *testing.T, what string, raw json.RawMessage, want []string) {
	t.Helper()
	if want == nil {
		return
	}
	var got []string
	json.Unmarshal(raw, &got)
	slices.Sort(got)
	w := slices.Clone(want)
	slices.Sort(w)
	if !slices.Equal(got, w) {
		t.Errorf("%s %s, want %v", what, raw, want)
	}
}
