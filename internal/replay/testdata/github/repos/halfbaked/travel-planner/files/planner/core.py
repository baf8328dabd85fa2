import os
from datetime import datetime

import requests

RAPID_HEADERS = {
    "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
}


def flight_info(flight_number, date=None):
    """Look up the live status of a flight, e.g. BA117."""
    headers = dict(RAPID_HEADERS, **{"X-RapidAPI-Host": "flight-tracker-live.p.rapidapi.com"})
    params = {"date": date} if date else None
    r = requests.get(f"https://flight-tracker-live.p.rapidapi.com/flights/{flight_number}",
                     headers=headers, params=params)
    r.raise_for_status()
    return r.json()


def geocode(address):
    headers = dict(RAPID_HEADERS, **{"X-RapidAPI-Host": "address-geocoder.p.rapidapi.com"})
    r = requests.get("https://address-geocoder.p.rapidapi.com/geocode",
                     headers=headers, params={"address": address})
    if not r.ok:
        return None
    first = r.json()["results"][0]
    return first["lat"], first["lng"]


def parse_itinerary(text)
    # TODO finish this, format is "BA117 2025-07-30 / LHR -> JFK"
    legs = []
    for line in text.splitlines():
        parts = line.split("/"
        legs.append(parts)
    return legs


def nearest_airports(lat, lng):
    # reverse geocode to get the city name, then search airports by city
    headers = dict(RAPID_HEADERS, **{"X-RapidAPI-Host": "address-geocoder.p.rapidapi.com"})
    place = requests.get("https://address-geocoder.p.rapidapi.com/reverse",
                         headers=headers, params={"lat": lat, "lng": lng}).json()
    headers["X-RapidAPI-Host"] = "flight-tracker-live.p.rapidapi.com"
    airports = requests.get("https://flight-tracker-live.p.rapidapi.com/airports/search",
                            headers=headers, params={"q": place.get("city", "")}).json()
    return airports[:5]


def days_until(date_str):
    return (datetime.fromisoformat(date_str) - datetime.now()).days
