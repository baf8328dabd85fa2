import asyncio
import csv
import os
from urllib.parse import urljoin, urlparse

import aiohttp

API_ROOT = "https://g-search-results.p.rapidapi.com"
HEADERS = {
    "X-RAPIDAPI-KEY": os.environ["SERP_KEY"],
    "X-RAPIDAPI-HOST": "g-search-results.p.rapidapi.com",
}


async def _search(session, keyword, num=100, hl="en"):
    url = urljoin(API_ROOT, "/search")
    async with session.get(url, params={"q": keyword, "num": num, "hl": hl}) as resp:
        resp.raise_for_status()
        return await resp.json()


async def position(session, keyword, domain):
    """1-based rank of `domain` for `keyword`, or None when not in the top 100."""
    data = await _search(session, keyword)
    for rank, item in enumerate(data.get("organic_results", []), start=1):
        if urlparse(item["link"]).netloc.endswith(domain):
            return rank
    return None


async def image_count(session, keyword):
    async with session.get(urljoin(API_ROOT, "/images"), params={"q": keyword}) as resp:
        if resp.status != 200:
            return 0
        return len((await resp.json()).get("images_results", []))


async def check_all(keywords, domain, out_csv):
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        ranks = await asyncio.gather(*(position(session, k, domain) for k in keywords))
    with open(out_csv, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["keyword", "rank"])
        w.writerows(zip(keywords, ranks))
    return dict(zip(keywords, ranks))
