const express = require('express');
const got = require('got');

const app = express();
const NEWS_API = 'https://newsapi.org/v2';

async function topHeadlines(country, category) {
  try {
    const body = await got(`${NEWS_API}/top-headlines`, {
      searchParams: { country, category, pageSize: 20 },
      headers: { 'X-Api-Key': process.env.NEWS_API_KEY },
    }).json();
    return body.articles;
  } catch (err) {
    if (err.response && err.response.statusCode === 429) {
      return [];
    }
    throw err;
  }
}

app.get('/headlines/:country', async (req, res) => {
  const articles = await topHeadlines(req.params.country, req.query.category);
  res.json(articles);
});

app.get('/sources', async (req, res) => {
  const data = await got.get(`${NEWS_API}/top-headlines/sources`, { searchParams: { language: 'en' } }).json();
  res.status(200).json(data.sources);
});

app.listen(process.env.PORT || 3000);
