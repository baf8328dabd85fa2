# Homework 5 - Chloe B.
# Part 1: get the weather for three cities and print which one is warmest
import requests

API_KEY = "eeb975729fmshae923d5a4fd12ap1abfe22jsn8f219e9cb0eb"


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


def warmest(cities):
    temps = {}
    for c in cities:
        temps[c] = get_current_weather(c, API_KEY)["current"]["temperature"]
    return max(temps, key=temps.get), temps


# Part 2: average of a list (no API)
def average(nums):
    if len(nums) == 0:
        return 0
    return sum(nums) / len(nums)


if __name__ == "__main__":
    city, temps = warmest(["Boston", "Miami", "Denver"])
    print(temps)
    print("warmest:", city)
    print("average:", average(list(temps.values())))
