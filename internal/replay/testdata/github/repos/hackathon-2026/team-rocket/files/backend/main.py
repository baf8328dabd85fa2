# TravelBuddy backend - hackathon build, please don't judge the code :)
import os
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI, Query

RAPID_KEY = os.environ["RAPID_KEY"]
clients: dict[str, httpx.AsyncClient] = {}


@asynccontextmanager
async def lifespan(app: FastAPI):
    for name, host in {
        "weather": "weatherstack-forecast.p.rapidapi.com",
        "hotels": "hotel-search-engine.p.rapidapi.com",
        "translate": "text-translator-ai.p.rapidapi.com",
    }.items():
        clients[name] = httpx.AsyncClient(
            base_url=f"https://{host}",
            headers={"X-RapidAPI-Key": RAPID_KEY, "X-RapidAPI-Host": host},
        )
    yield
    for c in clients.values():
        await c.aclose()


app = FastAPI(lifespan=lifespan)


@app.get("/trip")
async def trip(city: str, checkin: str, checkout: str, lang: str = "en"):
    """One call for the app's trip screen: weather + hotel destinations + a translated greeting."""
    weather = (await clients["weather"].get(f"/forecast/daily/{city}", params={"days": 5})).json()
    places = (await clients["hotels"].get("/locations/search", params={"query": city})).json()
    hello = await clients["translate"].post("/translate", json={"text": "Welcome!", "target": lang})
    return {"weather": weather, "places": places[:3], "greeting": hello.json().get("translatedText")}


@app.get("/reviews/{hotel_id}")
async def reviews(hotel_id: str, page: int = Query(1, ge=1)):
    async with httpx.AsyncClient() as client:
        r = await client.get(
            f"https://hotel-search-engine.p.rapidapi.com/hotels/{hotel_id}/reviews",
            params={"page": page},
            headers={"x-rapidapi-key": RAPID_KEY, "x-rapidapi-host": "hotel-search-engine.p.rapidapi.com"},
        )
    r.raise_for_status()
    return r.json()


@app.get("/nowcast/{city}")
async def nowcast(city: str):
    r = await clients["weather"].get(f"/forecast/15minutely/{city}")
    return r.json() if r.is_success else {"error": r.status_code}
