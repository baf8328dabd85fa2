// Shapes of https://realtime-stock-quotes.p.rapidapi.com responses we rely on.
declare namespace RealtimeStockQuotes {
  interface Movers {
    gainers: string[];
    losers: string[];
  }
}
