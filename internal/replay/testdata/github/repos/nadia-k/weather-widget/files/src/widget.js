/* Weather widget: drop <div id="wx"></div> and this script into a page. */
const RAPIDAPI_HOST = 'weatherstack-forecast.p.rapidapi.com';

function apiKey() {
  return document.querySelector('meta[name="rapidapi-key"]').content;
}

/**
 * Current conditions for a place, shown in the widget's header.
 * @param {string} place a city name or "lat,lon"
 */
async function showCurrent(place) {
  const params = new URLSearchParams({ q: place, lang: navigator.language.slice(0, 2) });
  const res = await fetch(`https://${RAPIDAPI_HOST}/current?${params}`, {
    headers: { 'X-RapidAPI-Key': apiKey(), 'X-RapidAPI-Host': RAPIDAPI_HOST },
  });
  if (!res.ok) {
    document.getElementById('wx-now').textContent = 'Weather unavailable';
    return;
  }
  const now = await res.json();
  document.getElementById('wx-now').textContent = `${now.temperature}° ${now.description}`;
}

// Five days of highs and lows, one list item per day.
function showForecast(place) {
  const url = 'https://' + RAPIDAPI_HOST + '/forecast/daily/' + encodeURIComponent(place) + '?days=5&units=metric';
  return fetch(url, { headers: { 'X-RapidAPI-Key': apiKey(), 'X-RapidAPI-Host': RAPIDAPI_HOST } })
    .then((res) => res.json())
    .then((data) => {
      const list = document.getElementById('wx-days');
      list.innerHTML = data.days.map((d) => `<li>${d.date}: ${d.min}–${d.max}°</li>`).join('');
    })
    .catch((err) => console.warn('forecast failed', err));
}

window.addEventListener('DOMContentLoaded', () => {
  const place = document.getElementById('wx').dataset.place || 'Berlin';
  showCurrent(place);
  showForecast(place);
});
