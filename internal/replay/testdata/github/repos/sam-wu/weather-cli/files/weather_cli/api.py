import requests


def get_current_weather(city, api_key):
    """Return current weather for a city as a dict."""
    url = "https://weatherstack-forecast.p.rapidapi.com/current"
    querystring = {"q": city}
    headers = {
        "X-RapidAPI-Key": api_key,
        "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com",
    }
    response = requests.get(url, headers=headers, params=querystring)
    if response.status_code != 200:
        raise Exception("Weather API error: " + str(response.status_code))
    return response.json()


def get_forecast(city, api_key, days=3):
    """Return the daily forecast for the next `days` days."""
    url = "https://weatherstack-forecast.p.rapidapi.com/forecast/daily/" + city
    headers = {
        "X-RapidAPI-Key": api_key,
        "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com",
    }
    response = requests.get(url, headers=headers, params={"days": days})
    if response.status_code != 200:
        raise Exception("Weather API error: " + str(response.status_code))
    return response.json()["forecast"]
