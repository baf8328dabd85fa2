import { renderTicker } from './render';

const HOST = 'news-headlines-api.p.rapidapi.com';

// Headlines of one country and category for the scrolling ticker.
export async function loadHeadlines(country = 'gb', category = 'technology') {
  const res = await fetch(`https://${HOST}/v1/headlines?country=${country}&category=${category}`, {
    headers: { 'x-rapidapi-key': process.env.RAPIDAPI_KEY, 'x-rapidapi-host': HOST },
  });
  const { articles } = await res.json();
  renderTicker(articles.map((a) => a.title));
}
