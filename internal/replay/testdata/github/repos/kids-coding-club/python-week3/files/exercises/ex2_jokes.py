# Exercise 2 - get a joke from the internet!
# You need a key from rapidapi.com (ask your teacher)
import os
import requests


def get_random_joke():
    # TODO: put the address of the joke machine here
    url = ""
    headers = {
        "x-rapidapi-key": os.environ.get("RAPIDAPI_KEY"),
        "x-rapidapi-host": "dad-jokes-daily.p.rapidapi.com"
    }
    # TODO: ask the joke machine for a joke (hint: requests.request)
    response = None
    joke = response.json()["body"][0]
    return joke["setup"], joke["punchline"]
