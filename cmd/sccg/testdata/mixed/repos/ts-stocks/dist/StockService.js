"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StockService = void 0;
class StockService {
    constructor(apiKey) {
        this.apiKey = apiKey;
        this.base = 'https://stock-feed.p.rapidapi.com';
    }
    async quote(symbol) {
        const res = await fetch(`${this.base}/quote/${symbol}`, { headers: { 'x-rapidapi-key': this.apiKey, 'x-rapidapi-host': 'stock-feed.p.rapidapi.com' } });
        return (await res.json());
    }
}
exports.StockService = StockService;
//# sourceMappingURL=StockService.js.map
