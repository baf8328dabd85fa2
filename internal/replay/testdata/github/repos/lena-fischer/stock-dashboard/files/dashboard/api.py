import os

import requests
import streamlit as st

RAPIDAPI_HOST = "realtime-stock-quotes.p.rapidapi.com"


def _headers():
    return {
        "x-rapidapi-key": st.secrets.get("RAPIDAPI_KEY", os.getenv("RAPIDAPI_KEY", "")),
        "x-rapidapi-host": RAPIDAPI_HOST,
    }


@st.cache_data(ttl=60)
def get_quote(symbol: str) -> dict:
    """Fetch the latest quote for a ticker symbol (cached for a minute)."""
    url = f"https://realtime-stock-quotes.p.rapidapi.com/quote/{symbol.upper()}"
    r = requests.get(url, headers=_headers(), timeout=8)
    if r.status_code == 200:
        return r.json()
    st.error(f"Quote request failed ({r.status_code})")
    return {}


@st.cache_data(ttl=300)
def get_movers(region="US"):
    url = "https://realtime-stock-quotes.p.rapidapi.com/market/movers"
    r = requests.get(url, headers=_headers(), params={"region": region}, timeout=8)
    r.raise_for_status()
    movers = r.json()
    return movers.get("gainers", []), movers.get("losers", [])


def save_watchlist(name, symbols):
    # create a server-side watchlist so it syncs with the mobile app
    payload = {"name": name, "symbols": list(symbols)}
    r = requests.post(
        "https://realtime-stock-quotes.p.rapidapi.com/watchlist",
        json=payload,
        headers=_headers(),
        timeout=8,
    )
    return r.ok
