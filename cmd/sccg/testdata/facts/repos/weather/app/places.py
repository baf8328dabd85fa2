import requests


def find_place(name):
    # ---------------- geocoding ----------------
    r = requests.get("https://geocoding-api.open-meteo.com/v1/search", params={"name": name, "count": 1}, timeout=10)
    return r.json()
