"""Tools the itinerary agent can call. Docstrings are shown to the model, keep them short."""
import json
import os
from typing import Optional

import httpx
from langchain_core.tools import tool

RAPIDAPI_KEY = os.environ["RAPIDAPI_KEY"]
_http = httpx.Client(timeout=20.0, headers={"X-RapidAPI-Key": RAPIDAPI_KEY})


@tool
def find_destination(query: str) -> str:
    """Find a destination id for a city or landmark name. Use before search_hotels."""
    r = _http.get(
        "https://hotel-search-engine.p.rapidapi.com/locations/search",
        params={"query": query, "locale": "en-us"},
        headers={"X-RapidAPI-Host": "hotel-search-engine.p.rapidapi.com"},
    )
    r.raise_for_status()
    return json.dumps([{"dest_id": d["dest_id"], "label": d["label"]} for d in r.json()[:5]])


@tool
def search_hotels(dest_id: str, checkin: str, checkout: str, adults: int = 2) -> str:
    """Search hotels for a destination id and ISO dates. Returns the 10 cheapest."""
    r = _http.get(
        "https://hotel-search-engine.p.rapidapi.com/hotels/search",
        params={"dest_id": dest_id, "checkin": checkin, "checkout": checkout, "adults": adults},
        headers={"X-RapidAPI-Host": "hotel-search-engine.p.rapidapi.com"},
    )
    if r.status_code != 200:
        return f"error {r.status_code}: {r.text[:200]}"
    hotels = sorted(r.json().get("result", []), key=lambda h: h.get("min_total_price", 1e12))[:10]
    return json.dumps([{k: h.get(k) for k in ("hotel_id", "hotel_name", "min_total_price", "review_score")} for h in hotels])


@tool
def flight_status(flight_number: str, date: Optional[str] = None) -> str:
    """Live status of a flight such as LH400; date is YYYY-MM-DD."""
    host = "flight-tracker-live.p.rapidapi.com"
    url = f"https://{host}/flights/{flight_number}"
    try:
        r = _http.get(url, params={"date": date} if date else None, headers={"X-RapidAPI-Host": host})
        r.raise_for_status()
    except httpx.HTTPError as e:
        return f"lookup failed: {e}"
    return r.text


@tool
def locate(address: str) -> str:
    """Geocode an address to 'lat,lng'."""
    r = _http.get("https://address-geocoder.p.rapidapi.com/geocode", params={"address": address},
                  headers={"X-RapidAPI-Host": "address-geocoder.p.rapidapi.com"})
    best = r.json()["results"][0]
    return f"{best['lat']},{best['lng']}"


TOOLS = [find_destination, search_hotels, flight_status, locate]
