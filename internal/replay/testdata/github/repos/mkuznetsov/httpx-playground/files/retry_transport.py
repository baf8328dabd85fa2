# httpx has transport-level retries for connect errors only; good enough for flaky wifi
import datetime
import os

import httpx

transport = httpx.HTTPTransport(retries=3)
client = httpx.Client(
    transport=transport,
    base_url="https://crypto-prices-live.p.rapidapi.com",
    headers={"X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"], "X-RapidAPI-Host": "crypto-prices-live.p.rapidapi.com"},
)


def price_history(coin, days=7):
    out = {}
    today = datetime.date.today()
    for i in range(days):
        d = today - datetime.timedelta(days=i)
        r = client.get(f"/coins/{coin}/history", params={"date": d.strftime("%d-%m-%Y")})
        if r.is_error:
            continue
        out[d.isoformat()] = r.json()["market_data"]["current_price"]["usd"]
    return out


print(price_history("solana", 3))
