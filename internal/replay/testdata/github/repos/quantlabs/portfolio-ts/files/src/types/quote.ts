export interface Quote {
  symbol: string;
  price: number;
  change: number;
  currency: string;
}
