// Label-rule fixture: React state, resource-type parameters and helpers in TypeScript.
import { useEffect, useState } from 'react';

const JIKAN = 'https://api.jikan.moe/v4';
const GITHUB = 'https://api.github.com';

type Kind = 'anime' | 'manga';

export async function fullEntry(type: Kind, id: number): Promise<unknown> {
  const res = await fetch(`${JIKAN}/${type}/${id}/full`);
  return (await res.json()).data;
}

export async function fullAnime(id: number): Promise<unknown> {
  return fullEntry('anime', id);
}

async function defaultBranch(repository: string): Promise<string> {
  const res = await fetch(`${GITHUB}/repos/${repository}`);
  return (await res.json()).default_branch;
}

export async function latestRuns(repository: string, branch?: string): Promise<unknown[]> {
  const ref: string = branch ?? (await defaultBranch(repository));
  const res = await fetch(`${GITHUB}/repos/${repository}/actions/runs?branch=${ref}`);
  return (await res.json()).workflow_runs;
}

export async function removeIssues(repository: string): Promise<boolean> {
  const res = await fetch(`${GITHUB}/repos/${repository}/issues`, { method: 'DELETE' });
  return res.ok;
}

const owner: string = '';
const DISCORD_API = 'https://discord.com/api/v10/';

export async function labIssues(): Promise<unknown[]> {
  const res = await fetch(`${GITHUB}/repos/${owner}/fetch-lab/issues`, { method: 'POST', body: '{}' });
  return res.json();
}

export async function discordGet<T>(endpoint: string): Promise<T> {
  const res = await fetch(`${DISCORD_API}${endpoint}`);
  return (await res.json()) as T;
}

export async function me(): Promise<{ id: string }> {
  return discordGet<{ id: string }>('users/@me');
}

export function Viewer() {
  const [location, setLocation] = useState<string>('');
  const [rows, setRows] = useState<unknown[]>([]);
  useEffect(() => {
    if (!location) return;
    fetch(location)
      .then((r) => r.json())
      .then((d) => setRows(d.results));
  }, [location]);
  return (
    <div>
      <button onClick={() => setLocation('https://api.nytimes.com/svc/mostpopular/v2/viewed/7.json')}>viewed</button>
      <ul>{rows.length}</ul>
    </div>
  );
}
