import { useEffect, useState } from 'react';

type Movie = { id: string; title: string; year: number };

const HEADERS = {
  'x-rapidapi-key': import.meta.env.VITE_RAPIDAPI_KEY as string,
  'x-rapidapi-host': 'movie-database-alt.p.rapidapi.com',
};

// Search box that lists the titles matching what the user typed.
export function MovieSearch({ query }: { query: string }) {
  const [movies, setMovies] = useState<Movie[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!query) return;
    const ctrl = new AbortController();
    fetch(`https://movie-database-alt.p.rapidapi.com/titles/search/title/${encodeURIComponent(query)}?exact=false`, {
      headers: HEADERS,
      signal: ctrl.signal,
    })
      .then((res) => {
        if (!res.ok) throw new Error(`search failed: ${res.status}`);
        return res.json();
      })
      .then((data) => setMovies(data.results as Movie[]))
      .catch((e: Error) => setError(e.message));
    return () => ctrl.abort();
  }, [query]);

  if (error) return <p className="error">{error}</p>;
  return (
    <ul>
      {movies.map((m) => (
        <li key={m.id}>
          {m.title} ({m.year})
        </li>
      ))}
    </ul>
  );
}
