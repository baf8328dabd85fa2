import React, { useEffect, useState } from 'react';
import axios from 'axios';
import { formatTemp } from './format';

const WEATHER_URL = 'https://api.openweathermap.org/data/2.5/weather';

// Shows the current weather of a city.
export default function CityWeather({ city, units = 'metric' }) {
  const [weather, setWeather] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    let cancelled = false;
    axios
      .get(WEATHER_URL, { params: { q: city, units, appid: process.env.REACT_APP_OWM_KEY } })
      .then((res) => {
        if (!cancelled) setWeather(res.data);
      })
      .catch((err) => setError(err.message));
    return () => {
      cancelled = true;
    };
  }, [city, units]);

  if (error) return <p className="error">{error}</p>;
  if (!weather) return <p>Loading…</p>;
  return (
    <div className="weather">
      <h2>{weather.name}</h2>
      <span>{formatTemp(weather.main.temp, units)}</span>
    </div>
  );
}
