# Databricks notebook source
# MAGIC %md
# MAGIC ## Player search
# MAGIC Quick look at the players endpoint before writing the loader.

# COMMAND ----------

import requests, json
import pandas as pd

# COMMAND ----------

url = "https://basketball-stats.p.rapidapi.com/players"
headers = {"X-RapidAPI-Key": dbutils.secrets.get("rapidapi", "key"), "X-RapidAPI-Host": "basketball-stats.p.rapidapi.com"}
res = requests.get(url, headers=headers, params={"search": "james"})
print(res.status_code)
players = pd.DataFrame(res.json()["response"])
display(players)

# COMMAND ----------

players.groupby("team")["id"].count().sort_values(ascending=False).head(10)
