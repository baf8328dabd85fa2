"""Collect headlines for many countries concurrently."""
import asyncio
import json
import os
from datetime import datetime, timezone

import aiohttp

NEWS_HOST = "news-headlines-api.p.rapidapi.com"
NEWS_BASE = "https://news-headlines-api.p.rapidapi.com/v1"
HEADERS = {
    "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY", ""),
    "X-RapidAPI-Host": NEWS_HOST,
}
COUNTRIES = ["us", "gb", "de", "fr", "in", "ng", "br", "jp"]


async def fetch_headlines(session, country, category=None):
    params = {"country": country}
    if category:
        params["category"] = category
    async with session.get(f"{NEWS_BASE}/headlines", params=params) as resp:
        if resp.status != 200:
            return country, []
        payload = await resp.json()
        return country, payload.get("articles", [])


async def search_news(session, query, since=None, sort_by="publishedAt"):
    """Full-text search over the last month of articles."""
    params = {"q": query, "sort_by": sort_by}
    if since:
        params["from"] = since
    async with session.get(NEWS_BASE + "/search", params=params) as resp:
        resp.raise_for_status()
        return (await resp.json())["articles"]


async def list_sources(session):
    # undocumented, found it in their JS bundle
    async with session.get("https://news-headlines-api.p.rapidapi.com/v1/sources") as resp:
        return await resp.json()


async def main():
    async with aiohttp.ClientSession(headers=HEADERS, timeout=aiohttp.ClientTimeout(total=30)) as session:
        results = await asyncio.gather(*(fetch_headlines(session, c) for c in COUNTRIES))
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M")
    with open(f"out/headlines-{stamp}.json", "w") as fh:
        json.dump(dict(results), fh)


if __name__ == "__main__":
    asyncio.run(main())
