// Label-rule fixture: helpers, methods, empty segments and wrappers as JavaScript writes them.
const REST_API = 'https://api.github.com';
const baseApi = 'https://api.github.com/';
const userName = '';
const token = process.env.GITHUB_TOKEN;

async function defaultBranch(repository) {
  const res = await fetch(`${REST_API}/repos/${repository}`, { headers: { Authorization: `token ${token}` } });
  return (await res.json()).default_branch;
}

async function isWorkflowSuccess(repository, branch = '') {
  branch = branch || (await defaultBranch(repository));
  const res = await fetch(`${REST_API}/repos/${repository}/actions/runs?branch=${branch}`);
  const { workflow_runs: runs } = await res.json();
  return runs.length > 0 && runs[0].conclusion === 'success';
}

function createIssue(title) {
  return fetch(`${baseApi}repos/${userName}/javascript-fetch-lab/issues`, {
    method: 'post',
    body: JSON.stringify({ title }),
    headers: { Authorization: `token ${token}` },
  }).then((res) => res.json());
}

function renameRepo(fork, name) {
  return fetch(`${baseApi}repos/${fork}/javascript-fetch-lab/forks`, {
    method: 'PATCH',
    body: JSON.stringify({ name }),
  }).then((res) => res.json());
}

const SPOTIFY_URL = 'https://api.spotify.com/v1/';

async function getData(param) {
  const res = await fetch(`${SPOTIFY_URL}${param}`, { headers: { Authorization: `Bearer ${token}` } });
  return res.json();
}

async function getArtists(param) {
  return getData(`artists/${param}`);
}

async function getAlbum(id) {
  return getData('albums/' + id);
}

async function discordRequest(endpoint, options) {
  const url = 'https://discord.com/api/v10/' + endpoint;
  const res = await fetch(url, { headers: { Authorization: `Bot ${token}` }, ...options });
  return res.json();
}

async function botUser() {
  return discordRequest('users/@me', { method: 'GET' });
}

function mostPopular(topic) {
  return fetch(`https://api.nytimes.com/svc/mostpopular/v2/${topic}/7.json?api-key=${token}`).then((r) => r.json());
}

function mostViewed() {
  return mostPopular('viewed');
}

function Profile() {
  const [url, setUrl] = React.useState('https://api.github.com/users/octocat');
  const [data, setData] = React.useState(null);
  async function loadProfile() {
    const res = await fetch(url);
    setData(await res.json());
  }
  return { data, loadProfile, search: (term) => setUrl(`https://api.github.com/users/${term}`) };
}

module.exports = { isWorkflowSuccess, createIssue, renameRepo, getArtists, getAlbum, botUser, mostViewed };
