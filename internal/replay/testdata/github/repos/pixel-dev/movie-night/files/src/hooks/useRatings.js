import { useEffect, useState } from 'react';

const API = 'https://movie-database-alt.p.rapidapi.com';

/** Ratings of one title (IMDb, Metacritic, ...), loaded when the id changes. */
export function useRatings(id) {
  const [ratings, setRatings] = useState(null);
  useEffect(() => {
    let live = true;
    async function load() {
      const res = await fetch(`${API}/titles/${id}/ratings`, {
        headers: {
          'x-rapidapi-key': import.meta.env.VITE_RAPIDAPI_KEY,
          'x-rapidapi-host': 'movie-database-alt.p.rapidapi.com',
        },
      });
      const body = await res.json();
      if (live) setRatings(body.results);
    }
    load();
    return () => {
      live = false;
    };
  }, [id]);
  return ratings;
}
