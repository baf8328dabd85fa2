package jsbox

import (
	"strings"
	"testing"

	"sccg/evaluate/sandbox"
)

// TestDriving: how the target is found and called, and what a run reports.
func TestDriving(t *testing.T) {
	tests := []struct {
		name, lang, code, fn string
		status               sandbox.Status
		urls                 []string
		undefined, stubbed   []string
	}{
		{name: "named default export, called at top level too", lang: "javascript", code: `
import 'dotenv/config';
import axios from 'axios';
export default async function getWeather(city) {
  const { data } = await axios.get('https://w.example.com/v1/' + city, { headers: { 'X-RapidAPI-Key': process.env.RAPIDAPI_KEY } });
  return data;
}
getWeather('Paris').then(console.log);`, fn: "getWeather", status: sandbox.StatusOK,
			urls: []string{"https://w.example.com/v1/Paris", "https://w.example.com/v1/London"}, stubbed: []string{"dotenv/config"}},
		{name: "class with a constructor taking the key", lang: "typescript", code: `
enum Unit { Metric = 'metric' }
export class WeatherClient {
  private base = 'https://api.example.com';
  constructor(private readonly apiKey: string, private units: Unit = Unit.Metric) {}
  async current(city: string): Promise<unknown> {
    const res = await fetch(` + "`${this.base}/current?city=${city}&units=${this.units}`" + `, { headers: { Authorization: ` + "`Bearer ${this.apiKey}`" + ` } });
    if (!res.ok) { throw new Error(` + "`HTTP ${res.status}`" + `); }
    return (await res.json()) as unknown;
  }
}`, fn: "current", status: sandbox.StatusOK, urls: []string{"https://api.example.com/current?city=London&units=metric"}},
		{name: "module.exports object and an undefined helper", lang: "javascript", code: `
const fetch = require('node-fetch');
async function search(term, limit) {
  const r = await fetch(BASE_URL + '/search?q=' + term + '&limit=' + limit);
  return normalize(await r.json());
}
module.exports = { search };`, fn: "search", status: sandbox.StatusOK,
			urls: []string{"test/search?q=London&limit=1"}, undefined: []string{"BASE_URL", "normalize"}},
		{name: "a Vite app's key from import.meta.env", lang: "typescript", code: `
const KEY = import.meta.env.VITE_RAPIDAPI_KEY as string;
export async function quote(symbol: string) {
  const r = await fetch(new URL('/quote?symbol=' + symbol, import.meta.env.VITE_BASE ?? 'https://q.example.com'), { headers: { 'X-RapidAPI-Key': KEY } });
  return r.json();
}`, fn: "quote", status: sandbox.StatusOK, urls: []string{"https://q.example.com/quote?symbol=test"}},
		{name: "error after the request still counts as sent", lang: "javascript", code: `
async function f() { await fetch('https://x.example.com/a'); throw new Error('after'); }`, fn: "f", status: sandbox.StatusOK,
			urls: []string{"https://x.example.com/a"}},
		{name: "no request: the error is the reason", lang: "javascript", code: `
function f(u) { if (u) throw new TypeError('boom'); }`, fn: "f", status: sandbox.StatusError},
		{name: "an express route handler", lang: "javascript", code: `
const express = require('express');
const axios = require('axios');
const app = express();
app.get('/weather', async (req, res) => {
  const r = await axios.get('https://weather.example.com/now', { params: { q: req.query.city } });
  res.json(r.data);
});
app.listen(3000);`, fn: "", status: sandbox.StatusOK, urls: []string{"https://weather.example.com/now"}, stubbed: []string{"express"}},
		{name: "a React effect", lang: "typescript", code: `
import React, { useEffect, useState } from 'react';
export default function Quotes() {
  const [quotes, setQuotes] = useState([]);
  useEffect(() => { fetch('https://quotes.example.com/random').then((r) => r.json()).then(setQuotes); }, []);
  return null;
}`, fn: "Quotes", status: sandbox.StatusOK, urls: []string{"https://quotes.example.com/random"}},
		{name: "jQuery ready", lang: "javascript", code: `
$(document).ready(function () {
  $.getJSON('https://news.example.com/top', function (d) { console.log(d); });
});`, fn: "", status: sandbox.StatusOK, urls: []string{"https://news.example.com/top"}},
		{name: "missing function", lang: "javascript", code: `function g() {}`, fn: "f", status: sandbox.StatusError},
		{name: "a function name is no code", lang: "javascript", code: `function g() {}`, fn: "fetch('https://evil.example.com')", status: sandbox.StatusError},
		{name: "request limit ends a polling loop", lang: "javascript", code: `
async function poll() { for (;;) { const r = await fetch('https://jobs.example.com/status'); await new Promise(ok => setTimeout(ok, 1000)); } }`,
			fn: "poll", status: sandbox.StatusOK},
		{name: "a React component: state setters, memoized callbacks and effects as one render runs them", lang: "javascript", code: `
import React, { useState, useEffect, useCallback, useMemo, useRef } from 'react';
export const Quotes = ({ symbol }) => {
  const [quote, setQuote] = useState(() => null);
  const seen = useRef(0);
  const url = useMemo(() => 'https://q.example.com/quote?symbol=' + symbol, [symbol]);
  const load = useCallback(async () => {
    seen.current += 1;
    const r = await fetch(url);
    setQuote(await r.json());
  }, [url]);
  useEffect(() => { load(); }, [load]);
  return <p>{quote ? quote.price : '…'}</p>;
};`, fn: "Quotes", status: sandbox.StatusOK, urls: []string{"https://q.example.com/quote?symbol=test"}},
		{name: "a handler set on a page element, found by its name", lang: "javascript", code: `
const list = document.getElementById('results');
const box = document.querySelector('#search');
function clear() { while (list.firstChild) { list.removeChild(list.firstChild); } }
box.onchange = () => {
  clear();
  fetch('https://r.example.com/search?q=' + box.value).then(r => r.json()).then(d => {
    const li = document.createElement('li'); li.textContent = d.title; list.appendChild(li);
  });
};`, fn: "onchange", status: sandbox.StatusOK, urls: []string{"https://r.example.com/search?q=London"}},
		{name: "a request handler that checks its method", lang: "javascript", code: `
export default async function handler(req, res) {
  if (req.method !== 'POST') return res.status(405).end();
  const r = await fetch('https://api.codehost.test/items/' + req.body.id, { method: 'POST' });
  res.status(200).json(await r.json());
}`, fn: "handler", status: sandbox.StatusOK, urls: []string{"https://api.codehost.test/items/test"}},
		{name: "a function of a TypeScript namespace, found by its name", lang: "typescript", code: `
module Services {
  export async function getLanguages(repoName: string) {
    const res = await fetch(` + "`https://api.codehost.test/repos/me/${repoName}/languages`" + `);
    return Object.keys(await res.json());
  }
}`, fn: "getLanguages", status: sandbox.StatusOK, urls: []string{"https://api.codehost.test/repos/me/test/languages"}},
		{name: "a handler set deeper in an object, found by its name", lang: "javascript", code: `
const app = { api: {} };
app.api.loadNews = async function (topic) { return fetch('https://n.example.com/news/' + topic); };`,
			fn: "loadNews", status: sandbox.StatusOK, urls: []string{"https://n.example.com/news/test"}},
		{name: "what is set on a stub stays there", lang: "javascript", code: `
const ui = widgets;
ui.panel.render = () => fetch('https://p.example.com/panel');`, fn: "render", status: sandbox.StatusOK,
			urls: []string{"https://p.example.com/panel"}},
		{name: "an Angular service: its injected HttpClient records, HttpHeaders and HttpParams read", lang: "typescript", code: `
import { HttpClient, HttpHeaders, HttpParams } from '@angular/common/http';
import { Injectable } from '@angular/core';
import { Observable } from 'rxjs';
@Injectable({ providedIn: 'root' })
export class MarketService {
  apiURL = 'https://bb.example.com/market/auto-complete';
  constructor(private httpClient: HttpClient) {}
  search(term: string): Observable<any> {
    const headers = new HttpHeaders({ 'X-RapidAPI-Host': 'bb.example.com' }).set('X-RapidAPI-Key', 'k');
    const params = new HttpParams().set('query', term);
    return this.httpClient.get(this.apiURL, { headers, params });
  }
}`, fn: "search", status: sandbox.StatusOK, urls: []string{"https://bb.example.com/market/auto-complete"}},
		{name: "a class under a decorator nobody imported", lang: "typescript", code: `
import { HttpClient } from '@angular/common/http';
@Injectable({ providedIn: 'root' })
export class NewsService {
  constructor(private http: HttpClient) {}
  latest() { return this.http.get('https://news.example.com/latest'); }
}`, fn: "latest", status: sandbox.StatusOK, urls: []string{"https://news.example.com/latest"}, undefined: []string{"Injectable"}},
		{name: "a Vue 2 page: a lifecycle hook of the options object, axios from a script tag", lang: "javascript", code: `
new Vue({
  el: '#games',
  data() { return { info: [], page: 2 }; },
  created() { this.load(); },
  methods: {
    load() {
      axios({ method: 'GET', url: 'https://games.example.com/games?page=' + this.page })
        .then(r => (this.info = r.data.results));
    },
  },
});`, fn: "created", status: sandbox.StatusOK, urls: []string{"https://games.example.com/games?page=2"}},
		{name: "a Vue 3 page: setup of createApp", lang: "javascript", code: `
const { createApp, ref } = Vue;
createApp({
  setup() {
    const message = ref('');
    axios.get('https://steam.example.com/appDetail/730').then(r => (message.value = r.data));
    return { message };
  },
}).mount('#app');`, fn: "setup", status: sandbox.StatusOK, urls: []string{"https://steam.example.com/appDetail/730"}},
		{name: "Angular's inject(HttpClient)", lang: "typescript", code: `
import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
@Injectable({ providedIn: 'root' })
export class QuoteService {
  private http = inject(HttpClient);
  random() { return this.http.post('https://quotes.example.com/random', { lang: 'en' }); }
}`, fn: "random", status: sandbox.StatusOK, urls: []string{"https://quotes.example.com/random"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := inProcess(t, tc.lang, tc.code, tc.fn)
			if res.Status != tc.status {
				t.Errorf("status %s (%s), want %s", res.Status, res.Reason, tc.status)
			}
			if tc.urls != nil {
				var got []string
				for _, q := range res.Requests {
					got = append(got, q.URL)
				}
				if len(got) != len(tc.urls) {
					t.Fatalf("urls %q, want %q", got, tc.urls)
				}
				for i := range got {
					if got[i] != tc.urls[i] {
						t.Errorf("url %d %q, want %q", i, got[i], tc.urls[i])
					}
				}
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{{"undefined", res.Undefined, tc.undefined}, {"stubbed", res.Stubbed, tc.stubbed}} {
				if c.want != nil && !equalSets(c.got, c.want) {
					t.Errorf("%s %q, want %q", c.what, c.got, c.want)
				}
			}
			if tc.name == "a function name is no code" && len(res.Requests) != 0 {
				t.Errorf("requests %v", res.Requests)
			}
			if strings.HasPrefix(tc.name, "a Vue 2 page") && (!strings.Contains(res.Reason, "handed to a framework stub") || !strings.Contains(res.Reason, "not defined: created")) {
				t.Errorf("reason %q, want the fallback named: a handed function sent it, created is not defined", res.Reason)
			}
			if strings.HasPrefix(tc.name, "an Angular service") && len(res.Requests) == 1 {
				q := res.Requests[0]
				if q.Lib != "angular" || q.Method != "GET" || !strings.Contains(string(q.Params), "query") || q.Headers["X-RapidAPI-Host"] != "bb.example.com" {
					t.Errorf("angular request %+v, want GET with the query param and the host header", q)
				}
			}
			if tc.name == "request limit ends a polling loop" && len(res.Requests) != maxRequests {
				t.Errorf("%d requests, want %d", len(res.Requests), maxRequests)
			}
		})
	}
}

func equalSets(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}
