export interface Quote {
  symbol: string;
  price: number;
}

/** Reads quotes and sets price alerts on the Stock Feed API. */
export class StockService {
  private readonly base = 'https://stock-feed.p.rapidapi.com';

  constructor(private readonly apiKey: string) {}

  private headers(): Record<string, string> {
    return {
      'x-rapidapi-key': this.apiKey,
      'x-rapidapi-host': 'stock-feed.p.rapidapi.com',
      'content-type': 'application/json',
    };
  }

  /** The latest quote of a ticker symbol. */
  async quote(symbol: string): Promise<Quote> {
    const res = await fetch(`${this.base}/quote/${symbol}`, { headers: this.headers() });
    if (!res.ok) {
      throw new Error(`quote ${symbol}: ${res.status}`);
    }
    return (await res.json()) as Quote;
  }

  // Ask the feed to notify us when a symbol crosses a price.
  async createAlert(symbol: string, price: number): Promise<void> {
    const res = await fetch(`${this.base}/alerts`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({ symbol, price }),
    });
    if (res.status !== 201) {
      throw new Error(`alert ${symbol}: ${res.status}`);
    }
  }
}
