import requests
import json
from datetime import date, datetime, timedelta
import os

from typing import Optional, Dict, Union, List


def search(q: str, num: int=10, hl: str='en', toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Web search results"
    q: Search query
        num: Number of results
        hl: Interface language
        
    """
    url = f"https://g-search-results.p.rapidapi.com/search"
    querystring = {'q': q, }
    if num:
        querystring['num'] = num
    if hl:
        querystring['hl'] = hl
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "g-search-results.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def images(q: str, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Image search results"
    q: Search query
        
    """
    url = f"https://g-search-results.p.rapidapi.com/images"
    querystring = {'q': q, }
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "g-search-results.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

