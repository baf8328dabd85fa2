# Lab 8 extra: check the spelling of every line in essay.txt
import os

import requests

HEADERS = {
    "x-rapidapi-key": os.environ["RAPIDAPI_KEY"],
    "x-rapidapi-host": "spell-check-plus.p.rapidapi.com",
}


def check_line(line):
    response = requests.request("GET", "https://spell-check-plus.p.rapidapi.com/check",
                                headers=HEADERS, params={"text": line, "lang": "en", "suggestions": "true"})
    return response.json().get("misspellings", [])


with open("essay.txt") as f:
    for n, line in enumerate(f, 1):
        for m in check_line(line):
            print(f"line {n}: {m['word']} -> {', '.join(m.get('suggestions', [])[:3])}")
