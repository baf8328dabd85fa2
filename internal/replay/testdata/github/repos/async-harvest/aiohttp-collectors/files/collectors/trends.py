import asyncio
import logging
import os

import aiohttp

log = logging.getLogger("trends")


class TrendsCollector:
    HOST = "realtime-google-trends.p.rapidapi.com"

    def __init__(self, key=None, concurrency=4):
        self.key = key or os.environ["RAPIDAPI_KEY"]
        self.sem = asyncio.Semaphore(concurrency)

    def _headers(self):
        return {"x-rapidapi-key": self.key, "x-rapidapi-host": self.HOST}

    async def daily(self, geo="US"):
        async with aiohttp.ClientSession(headers=self._headers()) as session:
            async with session.get(f"https://{self.HOST}/trends/daily", params={"geo": geo}) as r:
                r.raise_for_status()
                return await r.json()

    async def interest(self, session, keyword, timeframe="today 3-m"):
        async with self.sem:
            try:
                async with session.get(
                    "https://realtime-google-trends.p.rapidapi.com/trends/interest",
                    params={"keyword": keyword, "timeframe": timeframe},
                    headers=self._headers(),
                ) as r:
                    return keyword, await r.json()
            except aiohttp.ClientError as exc:
                log.error("interest(%s) failed: %s", keyword, exc)
                return keyword, None

    async def interest_many(self, keywords):
        async with aiohttp.ClientSession() as session:
            pairs = await asyncio.gather(*(self.interest(session, k) for k in keywords))
        return dict(pairs)


async def trending_now(country="US"):
    """Second provider, used as a fallback when the first one is rate limited."""
    headers = {
        "X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"],
        "X-RapidAPI-Host": "google-realtime-trends-data-api.p.rapidapi.com",
    }
    url = "https://google-realtime-trends-data-api.p.rapidapi.com/v2/trending"
    async with aiohttp.ClientSession() as session:
        resp = await session.get(url, headers=headers, params={"country": country})
        data = await resp.json()
        resp.release()
    return [t["title"] for t in data.get("trends", [])]
