'use strict';

const axios = require('axios');

const client = axios.create({
  baseURL: 'https://dad-jokes-daily.p.rapidapi.com',
  timeout: 4000,
  headers: {
    'X-RapidAPI-Key': process.env.RAPIDAPI_KEY,
    'X-RapidAPI-Host': 'dad-jokes-daily.p.rapidapi.com',
  },
});

// One random joke for the /dadjoke command.
async function randomJoke() {
  const res = await client.get('/random/joke');
  return res.data.body[0];
}

/**
 * Jokes that contain a word, at most five.
 * @param {string} term
 */
async function searchJokes(term) {
  try {
    const { data } = await client.get('/joke/search', { params: { term } });
    return data.body.slice(0, 5);
  } catch (err) {
    if (err.response && err.response.status === 404) return [];
    throw err;
  }
}

module.exports = { randomJoke, searchJokes };
