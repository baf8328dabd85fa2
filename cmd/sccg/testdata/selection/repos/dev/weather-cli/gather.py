import asyncio

import aiohttp


async def fetch_quote(session):
    async with session.get("https://api.quotegarden.dev/api/v3/quotes/random") as r:
        return await r.json()


async def fetch_pokemon(session, name):
    async with session.get(f"https://api.pokedata.dev/api/v2/pokemon/{name}") as r:
        return await r.json()


async def main():
    async with aiohttp.ClientSession() as session:
        quote, pokemon = await asyncio.gather(fetch_quote(session), fetch_pokemon(session, "pikachu"))
    print(quote, pokemon["name"])


if __name__ == "__main__":
    asyncio.run(main())
