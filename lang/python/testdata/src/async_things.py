import asyncio
import aiohttp
import httpx
import http.client
import urllib.request
import json


async def fetch(session, word):
    url = "https://wordsapiv1.p.rapidapi.com/words/{}/definitions".format(word)
    async with session.get(url, headers={"x-rapidapi-host": "wordsapiv1.p.rapidapi.com"}) as resp:
        if resp.status == 200:
            return await resp.json()


async def main():
    async with aiohttp.ClientSession() as s:
        await fetch(s, "hello")


async def hx(term):
    async with httpx.AsyncClient(base_url="https://api.hx.io") as client:
        r = await client.post("/v1/items/%s" % term, json={"name": term, "n": 3})
        return r.json()


def conn_style(symbol):
    conn = http.client.HTTPSConnection("yahoo-finance15.p.rapidapi.com")
    headers = {'X-RapidAPI-Key': "abc123", 'X-RapidAPI-Host': "yahoo-finance15.p.rapidapi.com"}
    conn.request("GET", "/api/yahoo/qu/quote/" + symbol + "?region=US", headers=headers)
    res = conn.getresponse()
    return json.loads(res.read().decode("utf-8"))


def urllib_style(q):
    req = urllib.request.Request("https://api.x.com/search?q=" + q, headers={"Accept": "application/json"})
    with urllib.request.urlopen(req) as r:
        return r.read()


def outer():
    def inner(x):
        return requests.get(PREFIX + x)
    return inner("a")
