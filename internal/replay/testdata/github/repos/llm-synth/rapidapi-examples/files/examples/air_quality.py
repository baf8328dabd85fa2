import os

import requests


def get_air_quality_by_city(city):
    # Define the target RapidAPI endpoint URL
    url = "https://air-quality-index.p.rapidapi.com/v1/aqi"
    # Set up the query parameters
    querystring = {"city": city}
    # Define the request headers including the API key and host
    headers = {
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "air-quality-index.p.rapidapi.com",
    }
    # Send the GET request to the API
    response = requests.get(url, headers=headers, params=querystring)
    # Return the JSON response
    return response.json()


def get_air_quality_by_coordinates(lat, lon):
    # Define the target RapidAPI endpoint URL
    url = "https://air-quality-index.p.rapidapi.com/v1/aqi/geo"
    # Set up the query parameters
    querystring = {"lat": lat, "lon": lon}
    # Define the request headers including the API key and host
    headers = {
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "air-quality-index.p.rapidapi.com",
    }
    # Send the GET request to the API
    response = requests.get(url, headers=headers, params=querystring)
    # Return the JSON response
    return response.json()


def get_air_quality_forecast(city):
    # Define the target RapidAPI endpoint URL
    url = "https://air-quality-index.p.rapidapi.com/v1/forecast"
    # Set up the query parameters
    querystring = {"city": city}
    # Define the request headers including the API key and host
    headers = {
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "air-quality-index.p.rapidapi.com",
    }
    # Send the GET request to the API
    response = requests.get(url, headers=headers, params=querystring)
    # Return the JSON response
    return response.json()
