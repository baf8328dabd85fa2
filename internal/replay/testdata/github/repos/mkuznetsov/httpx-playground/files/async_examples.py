import asyncio
import os

import httpx

JOKES = "https://dad-jokes-daily.p.rapidapi.com"
HEADERS = {
    "x-rapidapi-key": os.environ["RAPIDAPI_KEY"],
    "x-rapidapi-host": "dad-jokes-daily.p.rapidapi.com",
}


async def search_jokes(term: str) -> list[str]:
    async with httpx.AsyncClient(headers=HEADERS) as client:
        resp = await client.get(f"{JOKES}/joke/search", params={"term": term})
    if resp.status_code != 200:
        return []
    return [j["joke"] for j in resp.json()["body"]]


async def random_jokes(n: int = 5) -> list[str]:
    async with httpx.AsyncClient(headers=HEADERS, timeout=5) as client:
        tasks = [client.get(JOKES + "/random/joke") for _ in range(n)]
        responses = await asyncio.gather(*tasks, return_exceptions=True)
    return [r.json()["body"][0]["setup"] for r in responses if isinstance(r, httpx.Response)]


if __name__ == "__main__":
    print(asyncio.run(search_jokes("cat")))
    print(asyncio.run(random_jokes(3)))
