#!/usr/bin/env python
# coding: utf-8

# In[1]:


import requests

key = "c0ffee1234msh5ca1ab1e00beefp1dead00jsn00000000cafe"
amount, src, dst = 250, "USD", "NGN"


# In[2]:


r = requests.get("https://currency-converter-pro.p.rapidapi.com/convert?from=%s&to=%s&amount=%s" % (src, dst, amount),
                 headers={"x-rapidapi-key": key, "x-rapidapi-host": "currency-converter-pro.p.rapidapi.com"})
r.json()


# In[3]:


print(f"{amount} {src} = {r.json()['result']:,.2f} {dst}")
