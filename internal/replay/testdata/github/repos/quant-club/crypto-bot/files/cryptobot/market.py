import time
from datetime import date

import requests


class MarketData:
    """Price feed backed by Crypto Prices Live (RapidAPI)."""

    HOST = "crypto-prices-live.p.rapidapi.com"
    URL = "https://crypto-prices-live.p.rapidapi.com"

    def __init__(self, api_key="a4c123b161msh2dd272d1371c17p1149d43jsn9536b3216fda", vs="usd"):
        self.vs = vs
        self._s = requests.Session()
        self._s.headers.update({"x-rapidapi-key": api_key, "x-rapidapi-host": self.HOST})
        self._cache = {}

    def markets(self, per_page=50):
        key = ("markets", per_page)
        hit = self._cache.get(key)
        if hit and time.time() - hit[0] < 30:
            return hit[1]
        r = self._s.get(self.URL + "/coins/markets", params={"vs_currency": self.vs, "per_page": per_page})
        r.raise_for_status()
        self._cache[key] = (time.time(), r.json())
        return self._cache[key][1]

    def price_on(self, coin_id: str, day: date):
        r = self._s.get(f"{self.URL}/coins/{coin_id}/history", params={"date": day.strftime("%d-%m-%Y")})
        if r.status_code == 429:
            time.sleep(2)
            return self.price_on(coin_id, day)
        r.raise_for_status()
        return r.json()["market_data"]["current_price"][self.vs]

    def price(self, symbol):
        for coin in self.markets(250):
            if coin["symbol"].lower() == symbol.lower():
                return coin["current_price"]
        raise KeyError(symbol)
