# v1 of the checker (sync). Kept because the weekly report still imports it.
import requests

API = "https://g-search-results.p.rapidapi.com/"


def serp(keyword, key, page=1):
    # 2021 endpoint, before they versioned the API
    resp = requests.get(API + "api/v1/search/q=" + keyword.replace(" ", "+"),
                        headers={"x-rapidapi-key": key, "x-rapidapi-host": "g-search-results.p.rapidapi.com"},
                        params={"start": (page - 1) * 10})
    return resp.json()


def top10(keyword, key):
    return [r["link"] for r in serp(keyword, key).get("results", [])[:10]]
