import { useCallback, useState } from 'react';
import ky from 'ky';

type Props = { initialQuery?: string };

interface Book {
  key: string;
  title: string;
}

const openLibrary = ky.create({ prefixUrl: 'https://openlibrary.org', timeout: 8000 });

export function BookSearch({ initialQuery = '' }: Props) {
  const [query, setQuery] = useState<string>(initialQuery);
  const [books, setBooks] = useState<Book[]>([]);

  // Search Open Library for books matching the query.
  const search = useCallback(async () => {
    const res = await openLibrary.get('search.json', { searchParams: { q: query, limit: 20 } }).json<{ docs: Book[] }>();
    setBooks(res.docs);
  }, [query]);

  return (
    <form onSubmit={(e) => { e.preventDefault(); void search(); }}>
      <input value={query} onChange={(e) => setQuery(e.target.value)} />
      <ul>{books.map((b) => <li key={b.key}>{b.title}</li>)}</ul>
    </form>
  );
}
