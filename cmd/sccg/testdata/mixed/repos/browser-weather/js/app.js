// Weather widget for the club's home page.
const API_HOST = 'weather-now.p.rapidapi.com';
const API_KEY = localStorage.getItem('rapidapiKey');

/**
 * Fetch the forecast for the next few days and draw it in the forecast table.
 * @param {string} city
 */
async function loadForecast(city) {
  const res = await fetch(`https://${API_HOST}/forecast/${encodeURIComponent(city)}?days=3`, {
    headers: { 'x-rapidapi-key': API_KEY, 'x-rapidapi-host': API_HOST },
  });
  if (!res.ok) {
    throw new Error(`forecast failed: ${res.status}`);
  }
  const data = await res.json();
  const rows = data.days.map((d) => `<tr><td>${d.date}</td><td>${d.max}°</td></tr>`);
  document.querySelector('#forecast tbody').innerHTML = rows.join('');
}

document.getElementById('city-form').addEventListener('submit', (e) => {
  e.preventDefault();
  loadForecast(document.getElementById('city').value).catch((err) => alert(err.message));
});
