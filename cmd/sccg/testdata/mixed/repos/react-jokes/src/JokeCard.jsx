import React, { useEffect, useState } from 'react';

const HEADERS = {
  'x-rapidapi-key': process.env.REACT_APP_RAPIDAPI_KEY,
  'x-rapidapi-host': 'jokes-now.p.rapidapi.com',
};

// A card that shows a new random joke each time it is mounted.
export default function JokeCard() {
  const [joke, setJoke] = useState(null);

  useEffect(() => {
    fetch('https://jokes-now.p.rapidapi.com/random', { headers: HEADERS })
      .then((res) => res.json())
      .then((data) => setJoke(data.joke))
      .catch(() => setJoke('No joke today.'));
  }, []);

  return <div className="joke-card">{joke ?? 'Loading…'}</div>;
}
