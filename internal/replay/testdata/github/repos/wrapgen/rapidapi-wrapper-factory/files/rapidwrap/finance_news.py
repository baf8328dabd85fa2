import os

import requests

RAPIDAPI_KEY = os.environ.get("RAPIDAPI_KEY", "")


def currency_converter_pro_convert(**params):
    url = "https://currency-converter-pro.p.rapidapi.com/convert"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "currency-converter-pro.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def currency_converter_pro_symbols(**params):
    url = "https://currency-converter-pro.p.rapidapi.com/symbols"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "currency-converter-pro.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def crypto_prices_live_coins_markets(**params):
    url = "https://crypto-prices-live.p.rapidapi.com/coins/markets"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "crypto-prices-live.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def realtime_stock_quotes_market_movers(**params):
    url = "https://realtime-stock-quotes.p.rapidapi.com/market/movers"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "realtime-stock-quotes.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def news_headlines_api_v1_headlines(**params):
    url = "https://news-headlines-api.p.rapidapi.com/v1/headlines"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "news-headlines-api.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()
