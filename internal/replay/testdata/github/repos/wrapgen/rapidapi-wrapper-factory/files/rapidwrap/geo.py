import os

import requests

RAPIDAPI_KEY = os.environ.get("RAPIDAPI_KEY", "")


def air_quality_index_v1_aqi(**params):
    url = "https://air-quality-index.p.rapidapi.com/v1/aqi"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "air-quality-index.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def air_quality_index_v1_aqi_geo(**params):
    url = "https://air-quality-index.p.rapidapi.com/v1/aqi/geo"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "air-quality-index.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def open_meteo_data_stations_daily(**params):
    url = "https://open-meteo-data.p.rapidapi.com/stations/daily"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "open-meteo-data.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def open_meteo_data_stations_nearby(**params):
    url = "https://open-meteo-data.p.rapidapi.com/stations/nearby"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "open-meteo-data.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def open_meteo_data_point_hourly(**params):
    url = "https://open-meteo-data.p.rapidapi.com/point/hourly"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "open-meteo-data.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()


def address_geocoder_geocode(**params):
    url = "https://address-geocoder.p.rapidapi.com/geocode"
    headers = {"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "address-geocoder.p.rapidapi.com"}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()
