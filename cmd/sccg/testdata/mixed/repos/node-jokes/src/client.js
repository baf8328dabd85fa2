const axios = require('axios');

const api = axios.create({
  baseURL: 'https://jokes-now.p.rapidapi.com',
  timeout: 5000,
  headers: {
    'x-rapidapi-key': process.env.RAPIDAPI_KEY,
    'x-rapidapi-host': 'jokes-now.p.rapidapi.com',
  },
});

/** Jokes that mention a word, for the /joke slash command. */
async function searchJokes(term) {
  const { data } = await api.get('/search', { params: { q: term } });
  return data.results.map((j) => j.text);
}

module.exports = { searchJokes };
