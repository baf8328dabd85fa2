package jsbox

import "fmt"

// realShaped are completions shaped like the real code JavaScript and TypeScript
// samples come from — components with hooks and JSX, Vue options objects, Node
// services with an axios instance, Express-style handlers, page scripts reading
// form fields, jQuery and XMLHttpRequest callbacks, a Discord registrar — at the
// sizes real samples have (500–1,000 characters; the real ones average about
// 600–700), written for this benchmark. %[1]d makes each completion distinct.
var realShaped = []struct{ lang, fn, code string }{
	{"js", "AnimeList", `import React, { useState, useEffect } from 'react';
import './AnimeList.css';

export default function AnimeList({ genre }) {
  const [animes, setAnimes] = useState([]);
  const [loading, setLoading] = useState(true);
  const [page, setPage] = useState(1);

  useEffect(() => {
    async function fetchAnimes() {
      setLoading(true);
      const response = await fetch(` + "`https://anime%[1]d.example.com/v4/anime?genres=${genre}&page=${page}&order_by=score`" + `);
      const json = await response.json();
      setAnimes(json.data || []);
      setLoading(false);
    }
    fetchAnimes();
  }, [genre, page]);

  if (loading) return <p className="loading">Loading…</p>;
  return (
    <div className="anime-list">
      {animes.map((a) => (
        <div key={a.mal_id} className="card"><img src={a.images.jpg.image_url} alt={a.title} /><h3>{a.title}</h3></div>
      ))}
      <button onClick={() => setPage(page + 1)}>Next</button>
    </div>
  );
}`},
	{"tsx", "RepoCard", `import { useEffect, useState } from 'react';
import axios from 'axios';

interface Repo { id: number; full_name: string; stargazers_count: number; description: string | null }
interface Props { owner: string; name: string }

export function RepoCard({ owner, name }: Props) {
  const [repo, setRepo] = useState<Repo | null>(null);
  const [error, setError] = useState<string>('');

  useEffect(() => {
    axios
      .get<Repo>(` + "`https://api.codehost%[1]d.example.com/repos/${owner}/${name}`" + `, { headers: { Accept: 'application/vnd.github+json' } })
      .then((res) => setRepo(res.data))
      .catch((err: Error) => setError(err.message));
  }, [owner, name]);

  if (error) return <div className="error">{error}</div>;
  if (!repo) return null;
  return (
    <article>
      <h2>{repo.full_name}</h2>
      <p>{repo.description ?? 'No description'}</p>
      <span>★ {repo.stargazers_count}</span>
    </article>
  );
}`},
	{"js", "methods.loadForecast", `export default {
  name: 'Forecast',
  data() {
    return { city: 'Lisbon', days: [], error: null, units: 'metric' };
  },
  computed: {
    title() { return 'Weather in ' + this.city; },
  },
  methods: {
    async loadForecast() {
      try {
        const res = await fetch('https://weather%[1]d.example.com/data/2.5/forecast?q=' + encodeURIComponent(this.city) + '&units=' + this.units + '&appid=' + process.env.VUE_APP_KEY);
        if (!res.ok) throw new Error('HTTP ' + res.status);
        const body = await res.json();
        this.days = body.list.filter((_, i) => i %% 8 === 0);
      } catch (e) {
        this.error = e.message;
      }
    },
  },
  mounted() {
    this.loadForecast();
  },
};`},
	{"ts", "GitHubService.listIssues", `import axios, { AxiosInstance } from 'axios';

export interface Issue { number: number; title: string; state: 'open' | 'closed'; labels: { name: string }[] }

export class GitHubService {
  private readonly http: AxiosInstance;

  constructor(private readonly token: string = process.env.GITHUB_TOKEN ?? '') {
    this.http = axios.create({
      baseURL: 'https://api.codehost%[1]d.example.com',
      timeout: 10000,
      headers: { Authorization: ` + "`Bearer ${this.token}`" + `, Accept: 'application/vnd.github+json' },
    });
  }

  async listIssues(owner: string, repo: string, state: 'open' | 'closed' = 'open'): Promise<Issue[]> {
    const { data } = await this.http.get<Issue[]>(` + "`/repos/${owner}/${repo}/issues`" + `, { params: { state, per_page: 50 } });
    return data.filter((i) => !i.labels.some((l) => l.name === 'wontfix'));
  }
}`},
	{"js", "getWeather", `const axios = require('axios');
const cache = new Map();

async function getWeather(req, res) {
  const city = (req.query.city || 'Paris').trim();
  if (cache.has(city)) return res.json(cache.get(city));
  try {
    const { data } = await axios.get('https://weather%[1]d.example.com/v1/current.json', {
      params: { key: process.env.WEATHER_KEY, q: city, aqi: 'no' },
      timeout: 5000,
    });
    const out = { city: data.location.name, temp: data.current.temp_c, text: data.current.condition.text };
    cache.set(city, out);
    res.json(out);
  } catch (err) {
    console.error(err.message);
    res.status(502).json({ error: 'upstream failed' });
  }
}

module.exports = { getWeather };`},
	{"js", "searchUser", `const form = document.querySelector('#search');
const result = document.getElementById('result');

async function searchUser(event) {
  event.preventDefault();
  const username = document.getElementById('username').value;
  result.innerHTML = '<p>Searching…</p>';
  const response = await fetch(` + "`https://api.codehost%[1]d.example.com/users/${username}/repos?sort=updated`" + `);
  if (response.status === 404) {
    result.innerHTML = '<p>No such user</p>';
    return;
  }
  const repos = await response.json();
  result.innerHTML = repos.map((r) => ` + "`<li><a href=\"${r.html_url}\">${r.name}</a> ★${r.stargazers_count}</li>`" + `).join('');
}

form.addEventListener('submit', searchUser);`},
	{"js", "loadQuotes", `function loadQuotes(symbols) {
  $('#quotes').empty();
  $.getJSON('https://finance%[1]d.example.com/api/v1/quote', { symbols: symbols.join(','), region: 'US' }, function (data) {
    $.each(data.quoteResponse.result, function (i, q) {
      var row = $('<tr>');
      row.append($('<td>').text(q.symbol));
      row.append($('<td>').text(q.regularMarketPrice.toFixed(2)));
      row.append($('<td>').text(q.regularMarketChangePercent.toFixed(2) + '%%'));
      $('#quotes').append(row);
    });
  }).fail(function (xhr) {
    $('#error').text('Request failed: ' + xhr.status);
  });
}`},
	{"js", "getPokemon", `function getPokemon(name, done) {
  var xhr = new XMLHttpRequest();
  xhr.open('GET', 'https://poke%[1]d.example.com/api/v2/pokemon/' + name.toLowerCase(), true);
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.onreadystatechange = function () {
    if (xhr.readyState !== 4) return;
    if (xhr.status === 200) {
      var p = JSON.parse(xhr.responseText);
      done(null, { name: p.name, types: p.types.map(function (t) { return t.type.name; }), weight: p.weight });
    } else {
      done(new Error('status ' + xhr.status));
    }
  };
  xhr.send();
}`},
	{"js", "InstallGlobalCommands", `import 'dotenv/config';

export async function DiscordRequest(endpoint, options) {
  const url = 'https://chat%[1]d.example.com/api/v10/' + endpoint;
  if (options.body) options.body = JSON.stringify(options.body);
  const res = await fetch(url, {
    headers: { Authorization: ` + "`Bot ${process.env.DISCORD_TOKEN}`" + `, 'Content-Type': 'application/json; charset=UTF-8' },
    ...options,
  });
  if (!res.ok) {
    const data = await res.json();
    throw new Error(JSON.stringify(data));
  }
  return res;
}

export async function InstallGlobalCommands(appId, commands) {
  const endpoint = ` + "`applications/${appId}/commands`" + `;
  try {
    await DiscordRequest(endpoint, { method: 'PUT', body: commands });
  } catch (err) {
    console.error(err);
  }
}`},
	{"js", "translate", `import fetch from 'node-fetch';

const API = 'https://translate%[1]d.example.com/language/translate/v2';

export async function translate(text, target = 'es', source = 'en') {
  const params = new URLSearchParams({ q: text, target, source, format: 'text', key: process.env.TRANSLATE_KEY });
  const response = await fetch(API + '?' + params.toString(), { method: 'POST', headers: { 'Content-Type': 'application/json' } });
  const json = await response.json();
  if (json.error) {
    throw new Error(json.error.message);
  }
  return json.data.translations.map((t) => t.translatedText).join('\n');
}`},
	{"ts", "fetchMovies", `type Movie = { id: number; title: string; release_date: string; vote_average: number };
type Page<T> = { page: number; results: T[]; total_pages: number };

const BASE_URL = 'https://movies%[1]d.example.com/3';
const API_KEY: string = process.env.TMDB_KEY as string;

export const fetchMovies = async (query: string, page = 1): Promise<Movie[]> => {
  const url = ` + "`${BASE_URL}/search/movie?api_key=${API_KEY}&query=${encodeURIComponent(query)}&page=${page}`" + `;
  try {
    const res = await fetch(url);
    if (!res.ok) {
      throw new Error(` + "`TMDB answered ${res.status}`" + `);
    }
    const data: Page<Movie> = await res.json();
    return data.results.sort((a, b) => b.vote_average - a.vote_average);
  } catch (e) {
    console.warn(e);
    return [];
  }
};`},
	{"js", "useCharacters", `import { useEffect, useState } from 'react';

export function useCharacters(page = 1) {
  const [characters, setCharacters] = useState([]);
  const [info, setInfo] = useState({});
  const [error, setError] = useState(null);

  useEffect(() => {
    let cancelled = false;
    fetch('https://cartoon%[1]d.example.com/api/character/?page=' + page)
      .then((res) => res.json())
      .then((data) => {
        if (cancelled) return;
        setCharacters(data.results);
        setInfo(data.info);
      })
      .catch((err) => setError(err));
    return () => {
      cancelled = true;
    };
  }, [page]);

  return { characters, info, error };
}`},
}

// realShapedCorpus is n distinct real-shaped completions, the shapes in turn.
func realShapedCorpus(n int) []benchCompletion {
	out := make([]benchCompletion, n)
	for i := range out {
		t := realShaped[i%len(realShaped)]
		out[i] = benchCompletion{t.lang, t.fn, fmt.Sprintf(t.code, i)}
	}
	return out
}
