const express = require('express');
const { randomJoke, searchJokes } = require('./jokesClient');

const app = express();

app.get('/joke', async (req, res) => {
  res.json(req.query.q ? await searchJokes(req.query.q) : await randomJoke());
});

app.listen(process.env.PORT || 3000);
