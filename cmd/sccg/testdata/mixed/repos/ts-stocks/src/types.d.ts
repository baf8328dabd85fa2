/** Responses of https://stock-feed.p.rapidapi.com */
declare module 'stock-feed' {
  export function quote(symbol: string): Promise<{ symbol: string; price: number }>;
}
