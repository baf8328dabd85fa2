import axios, { AxiosInstance } from 'axios';

import { Quote } from '../types/quote';

const BASE_URL = 'https://realtime-stock-quotes.p.rapidapi.com';

export class QuoteService {
  private readonly http: AxiosInstance;

  constructor(apiKey: string) {
    this.http = axios.create({
      baseURL: BASE_URL,
      headers: { 'X-RapidAPI-Key': apiKey, 'X-RapidAPI-Host': 'realtime-stock-quotes.p.rapidapi.com' },
    });
  }

  /** Latest price of a ticker symbol, as the portfolio page shows it. */
  async getQuote(symbol: string): Promise<Quote> {
    const { data, status } = await this.http.get<Quote>(`/quote/${symbol.toUpperCase()}`);
    if (status !== 200) {
      throw new Error(`quote ${symbol}: HTTP ${status}`);
    }
    return data;
  }

  /** Save a named watchlist of symbols for the signed-in user. */
  async saveWatchlist(name: string, symbols: string[]): Promise<string> {
    const res = await this.http.post<{ id: string }>('/watchlist', { name, symbols });
    return res.data.id;
  }
}
