// Show today's weather in the sidebar.
async function showWeather(city) {
  const response = await fetch(`https://weather-now.p.rapidapi.com/current?city=${encodeURIComponent(city)}`, {
    method: 'GET',
    headers: {
      'x-rapidapi-key': window.RAPID_KEY,
      'x-rapidapi-host': 'weather-now.p.rapidapi.com'
    }
  });
  const result = await response.json();
  document.querySelector('#temp').textContent = `${result.temp} °C`;
}
