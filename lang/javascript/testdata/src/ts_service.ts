import { HttpError } from './errors';
import type { Logger } from '../logging';

export interface Quote {
  symbol: string;
  price: number;
}

type Interval = '1min' | '5min' | '1day';

const DEFAULT_HOST = 'twelve-data1.p.rapidapi.com';

/** Client for the Twelve Data market API. */
export class MarketClient {
  private readonly baseUrl: string = `https://${DEFAULT_HOST}`;

  constructor(private readonly apiKey: string, private readonly log?: Logger) {}

  private headers(): Record<string, string> {
    return { 'X-RapidAPI-Key': this.apiKey, 'X-RapidAPI-Host': DEFAULT_HOST };
  }

  /**
   * Returns the latest quote of a symbol.
   */
  async quote(symbol: string): Promise<Quote> {
    const url = new URL('/quote', this.baseUrl);
    url.searchParams.set('symbol', symbol);
    const res = await fetch(url.toString(), { headers: this.headers() });
    if (!res.ok) {
      throw new HttpError(res.status, await res.text());
    }
    return (await res.json()) as Quote;
  }

  async series(symbol: string, interval: Interval = '1day', outputsize = 30): Promise<unknown> {
    const qs = new URLSearchParams({ symbol, interval, outputsize: String(outputsize) });
    const res = await fetch(`${this.baseUrl}/time_series?${qs}`, { method: 'GET', headers: this.headers() });
    this.log?.info('series', res.status);
    return res.json();
  }
}
