"""Local weather lookup.

We used to call weatherstack-forecast.p.rapidapi.com directly from here, but all traffic now
goes through the team proxy, which adds the key and caches for 10 minutes.
"""
import requests

PROXY = "http://localhost:8080"


def current(city):
    # proxy path mirrors the upstream /current endpoint
    r = requests.get(f"{PROXY}/weather/current", params={"q": city}, timeout=3)
    r.raise_for_status()
    return r.json()
