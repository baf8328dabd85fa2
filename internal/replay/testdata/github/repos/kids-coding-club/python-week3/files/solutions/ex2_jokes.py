# Exercise 2 - get a joke from the internet!
# You need a key from rapidapi.com (ask your teacher)
import os
import requests


def get_random_joke():
    # this is the address of the joke machine
    url = "https://dad-jokes-daily.p.rapidapi.com/random/joke"
    headers = {
        "x-rapidapi-key": os.environ.get("RAPIDAPI_KEY"),
        "x-rapidapi-host": "dad-jokes-daily.p.rapidapi.com"
    }
    # ask the joke machine for a joke
    response = requests.request("GET", url, headers=headers)
    joke = response.json()["body"][0]
    # a joke has two parts
    return joke["setup"], joke["punchline"]


setup, punchline = get_random_joke()
print(setup)
print("...")
print(punchline)
