import logging
import os

import requests

log = logging.getLogger(__name__)

RAPIDAPI_HOST = "realtime-stock-quotes.p.rapidapi.com"


def _headers():
    return {
        "x-rapidapi-key": os.getenv("RAPIDAPI_KEY", ""),
        "x-rapidapi-host": RAPIDAPI_HOST,
    }


def get_quote(symbol: str) -> dict:
    """Fetch the latest quote for a ticker symbol."""
    url = f"https://realtime-stock-quotes.p.rapidapi.com/quote/{symbol.upper()}"
    r = requests.get(url, headers=_headers(), timeout=5)
    if r.status_code == 200:
        return r.json()
    log.warning(f"Quote request failed ({r.status_code})")
    return {}


def last_price(symbol):
    return float(get_quote(symbol).get("price") or "nan")
