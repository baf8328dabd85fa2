import requests

HOST = "weather-now.p.rapidapi.com"


def current(city, key):
    r = requests.get(f"https://{HOST}/current", params={"q": city},
                     headers={"X-RapidAPI-Host": HOST, "X-RapidAPI-Key": key})
    return r.json()
