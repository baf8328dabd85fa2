import os

import requests


def get_flight_status(flight_number, date=None):
    # Define the target RapidAPI endpoint URL
    url = f"https://flight-tracker-live.p.rapidapi.com/flights/{flight_number}"
    # Set up the query parameters
    querystring = {}
    if date:
        querystring["date"] = date
    # Define the request headers including the API key and host
    headers = {
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "flight-tracker-live.p.rapidapi.com",
    }
    # Send the GET request to the API
    response = requests.get(url, headers=headers, params=querystring)
    # Check if the request was successful
    if response.status_code == 200:
        # Return the JSON response
        return response.json()
    # Return None if the request failed
    return None


def search_airports(q):
    # Define the target RapidAPI endpoint URL
    url = "https://flight-tracker-live.p.rapidapi.com/airports/search"
    # Set up the query parameters
    querystring = {"q": q}
    # Define the request headers including the API key and host
    headers = {
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "flight-tracker-live.p.rapidapi.com",
    }
    # Send the GET request to the API
    response = requests.get(url, headers=headers, params=querystring)
    # Return the JSON response
    return response.json()
