import requests
import json
from datetime import date, datetime, timedelta
import os

from typing import Optional, Dict, Union, List


def daily_forecast(location: str, units: str='m', days: int=3, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Daily forecast for a location (city name or lat,lon)"
    location: City name, e.g. London
        units: m (metric), f (fahrenheit) or s (scientific)
        days: Number of days, 1-14
        
    """
    url = f"https://weatherstack-forecast.p.rapidapi.com/forecast/daily/{location}"
    querystring = {}
    if units:
        querystring['units'] = units
    if days:
        querystring['days'] = days
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def current(q: str, lang: str='en', toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Current weather"
    q: Location query
        lang: Language code
        
    """
    url = f"https://weatherstack-forecast.p.rapidapi.com/current"
    querystring = {'q': q, }
    if lang:
        querystring['lang'] = lang
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def forecast_15minutely(location: str, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "15-minute forecast"
    location: City name or coordinates
        
    """
    url = f"https://weatherstack-forecast.p.rapidapi.com/forecast/15minutely/{location}"
    querystring = {}
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

