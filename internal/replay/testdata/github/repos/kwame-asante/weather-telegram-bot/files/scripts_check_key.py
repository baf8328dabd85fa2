"""Quick check that RAPIDAPI_KEY works before deploying the bot."""
import os
import sys

import requests

resp = requests.get(
    "https://weatherstack-forecast.p.rapidapi.com/current",
    params={"q": "Accra", "units": "m"},
    headers={"x-rapidapi-key": os.environ.get("RAPIDAPI_KEY", ""), "x-rapidapi-host": "weatherstack-forecast.p.rapidapi.com"},
    timeout=10,
)
if resp.status_code == 200:
    print("key OK, it is", resp.json()["current"]["temperature"], "C in Accra")
else:
    sys.exit(f"key check failed: HTTP {resp.status_code} {resp.text[:200]}")
