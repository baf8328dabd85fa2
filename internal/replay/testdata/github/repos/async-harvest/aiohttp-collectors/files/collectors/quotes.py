import asyncio
import os

import aiohttp

QUOTES_HOST = "realtime-stock-quotes.p.rapidapi.com"


async def quote(session: aiohttp.ClientSession, symbol: str) -> dict:
    url = "https://{}/quote/{}".format(QUOTES_HOST, symbol)
    async with session.get(url) as r:
        if r.status == 404:
            return {"symbol": symbol, "error": "unknown symbol"}
        r.raise_for_status()
        return await r.json()


async def create_watchlist(session: aiohttp.ClientSession, name: str, symbols: list) -> bool:
    async with session.post("https://realtime-stock-quotes.p.rapidapi.com/watchlist",
                            json={"name": name, "symbols": symbols}) as r:
        return r.status in (200, 201)


async def snapshot(symbols):
    headers = {"x-rapidapi-key": os.environ["RAPIDAPI_KEY"], "x-rapidapi-host": QUOTES_HOST}
    async with aiohttp.ClientSession(headers=headers) as session:
        return await asyncio.gather(*(quote(session, s) for s in symbols))
