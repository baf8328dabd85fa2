import requests


def get_quote():
    r = requests.get("https://api.quotegarden.dev/api/v3/quotes/random")
    return r.json()["data"][0]["quoteText"]
