#!/usr/bin/env python
# coding: utf-8

# In[1]:


import requests
import pandas as pd
import matplotlib.pyplot as plt


# In[2]:


url = "https://crypto-prices-live.p.rapidapi.com/coins/markets"

querystring = {"vs_currency":"usd","per_page":"100"}

headers = {
	"X-RapidAPI-Key": "c0ffee1234msh5ca1ab1e00beefp1dead00jsn00000000cafe",
	"X-RapidAPI-Host": "crypto-prices-live.p.rapidapi.com"
}

response = requests.get(url, headers=headers, params=querystring)

print(response.json()[:3])


# In[3]:


df = pd.DataFrame(response.json())
df = df[["id", "symbol", "current_price", "market_cap", "price_change_percentage_24h"]]
df.head(10)


# In[4]:


top = df.sort_values("market_cap", ascending=False).head(15)
top.plot.bar(x="symbol", y="price_change_percentage_24h", figsize=(12, 4))
plt.title("24h change, top 15 by market cap")
plt.show()


# In[ ]:




