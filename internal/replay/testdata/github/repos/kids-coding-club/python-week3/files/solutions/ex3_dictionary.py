import os
import requests

headers = {
    "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
    "X-RapidAPI-Host": "dictionary-lookup.p.rapidapi.com",
}


def define(word):
    url = f"https://dictionary-lookup.p.rapidapi.com/words/{word}/definitions"
    data = requests.get(url, headers=headers).json()
    print(word, "-", data["definitions"][0]["definition"])
    # bonus
    url = f"https://dictionary-lookup.p.rapidapi.com/words/{word}/synonyms"
    syn = requests.get(url, headers=headers).json()
    print("similar words:", ", ".join(syn["synonyms"]))


define("happy")
