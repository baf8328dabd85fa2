#!/usr/bin/env python
# coding: utf-8

# In[1]:


import datetime as dt
import time

import pandas as pd
import requests

HEADERS = {
    "X-RapidAPI-Key": "c0ffee1234msh5ca1ab1e00beefp1dead00jsn00000000cafe",
    "X-RapidAPI-Host": "crypto-prices-live.p.rapidapi.com",
}


# In[2]:


def fetch_history(coin, day):
    # date has to be dd-mm-yyyy for this endpoint
    url = f"https://crypto-prices-live.p.rapidapi.com/coins/{coin}/history"
    r = requests.get(url, headers=HEADERS, params={"date": day.strftime("%d-%m-%Y")})
    return r.json()


# In[3]:


rows = []
start = dt.date(2021, 10, 1)
for i in range(60):
    day = start + dt.timedelta(days=i)
    snap = fetch_history("bitcoin", day)
    price = snap.get("market_data", {}).get("current_price", {}).get("usd")
    rows.append({"date": day, "usd": price})
    time.sleep(1.2)  # free plan = 1 req/s


# In[4]:


hist = pd.DataFrame(rows).set_index("date")
hist["usd"].plot(title="BTC / USD, Oct-Nov 2021")


# In[5]:


# sanity check against the markets endpoint, eth only
resp = requests.get("https://crypto-prices-live.p.rapidapi.com/coins/ethereum/history",
                    headers=HEADERS, params={"date": "01-12-2021"})
resp.json()["market_data"]["current_price"]["eur"]
