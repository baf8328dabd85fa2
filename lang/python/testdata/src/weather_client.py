"""A small weather client."""
import os
import requests
from urllib.parse import urljoin

API_HOST = "weatherbit-v1-mashape.p.rapidapi.com"
BASE_URL = f"https://{API_HOST}"
HEADERS = {
    "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
    "X-RapidAPI-Host": API_HOST,
}


def _get(path, params=None):
    resp = requests.get(urljoin(BASE_URL, path), headers=HEADERS, params=params, timeout=10)
    resp.raise_for_status()
    return resp.json()


# Get the 16-day forecast for a city.
def forecast(city, days=16):
    return _get("/forecast/daily", {"city": city, "days": days})


def current(lat, lon):
    """Return current weather at a point."""
    try:
        return _get(f"/current/{lat}/{lon}")
    except requests.RequestException:
        return None


class Client:
    base = "https://api.example.com/v2"

    def __init__(self, key):
        self.session = requests.Session()
        self.session.headers.update({"x-rapidapi-key": key, "x-rapidapi-host": "example.p.rapidapi.com"})

    def search(self, q):
        r = self.session.get(self.base + "/search", params={"q": q, "limit": 10})
        return r.json()

    def unrelated(self):
        return 1


if __name__ == "__main__":
    key = os.environ["KEY"]
    print(requests.get("https://example.com/ping").status_code)
