"""Thin client for the Weatherstack Forecast API on RapidAPI.

Used by the Telegram handlers in bot/handlers.py.
"""
import os
import logging

import requests

log = logging.getLogger(__name__)

BASE_URL = "https://weatherstack-forecast.p.rapidapi.com"
HEADERS = {
    "X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"],
    "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com",
}
TIMEOUT = 10


def _get(path, params=None):
    """GET a path on the weather API and return the decoded JSON body."""
    resp = requests.get(BASE_URL + path, headers=HEADERS, params=params, timeout=TIMEOUT)
    resp.raise_for_status()
    return resp.json()


def current_weather(city, lang="en"):
    """Return the current conditions for a city name."""
    return _get("/current", {"q": city, "lang": lang})


def daily_forecast(city, days=3, units="m"):
    """Return a `days`-day forecast for `city`."""
    data = _get(f"/forecast/daily/{city}", {"units": units, "days": days})
    return data.get("forecast", [])


def nowcast(city):
    # next two hours in 15 minute steps, used by /rain
    try:
        return _get("/forecast/15minutely/" + city)
    except requests.HTTPError as exc:
        log.warning("nowcast failed for %s: %s", city, exc)
        return None
