import requests

API = "https://api.quotegarden.dev/api/v3"


def list_authors():
    r = requests.get(API + "/authors")
    return sorted(r.json()["data"])


def search_quotes(word, limit=10):
    r = requests.get(API + "/quotes", params={"query": word, "limit": limit})
    return [q["quoteText"] for q in r.json()["data"]]
