'use strict';

const axios = require('axios');
const { URLSearchParams } = require('url');
const logger = require('./logger');

const BASE_URL = process.env.SPOTIFY_API || 'https://api.spotify.com/v1';
const DEFAULT_TIMEOUT = 5000;

const spotify = axios.create({ baseURL: BASE_URL, timeout: DEFAULT_TIMEOUT });
spotify.defaults.headers.common['Content-Type'] = 'application/json';

async function getToken(clientId, clientSecret) {
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  const res = await axios.post('https://accounts.spotify.com/api/token', body.toString(), {
    headers: {
      Authorization: 'Basic ' + Buffer.from(clientId + ':' + clientSecret).toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
  });
  return res.data.access_token;
}

/** Searches tracks by name. */
async function searchTracks(token, query, limit = 10) {
  const res = await spotify.get('/search', {
    headers: { Authorization: `Bearer ${token}` },
    params: { q: query, type: 'track', limit },
    validateStatus: (s) => s < 500,
  });
  if (res.status !== 200) {
    logger.warn('search failed', res.status);
    return [];
  }
  return res.data.tracks.items;
}

async function artistTopTracks(token, artistId, market) {
  const { data } = await spotify.get(`/artists/${artistId}/top-tracks?market=${market}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return data.tracks;
}

module.exports = { getToken, searchTracks, artistTopTracks };
