import requests


def daily(location, key):
    url = "https://weather-now.p.rapidapi.com/forecast/daily/" + location
    headers = {"x-rapidapi-host": "weather-now.p.rapidapi.com", "x-rapidapi-key": key}
    response = requests.get(url, headers=headers, params={"units": "metric"})
    response.raise_for_status()
    return response.json()
