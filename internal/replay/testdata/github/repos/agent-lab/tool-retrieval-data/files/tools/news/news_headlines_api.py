import requests
import json
from datetime import date, datetime, timedelta
import os

from typing import Optional, Dict, Union, List


def v1_search(q: str, is_from: str=None, sort_by: str=None, toolbench_rapidapi_key: str='cea27d2693msh4b484e73cf575dp1cad6bajsn2b0aee0ca923'):
    """
    "Search articles"
    q: Keywords
        is_from: Oldest article date, YYYY-MM-DD
        sort_by: relevancy, popularity or publishedAt
        
    """
    url = f"https://news-headlines-api.p.rapidapi.com/v1/search"
    querystring = {'q': q, }
    if is_from:
        querystring['from'] = is_from
    if sort_by:
        querystring['sort_by'] = sort_by
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "news-headlines-api.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def v1_headlines(country: str=None, category: str=None, toolbench_rapidapi_key: str='cea27d2693msh4b484e73cf575dp1cad6bajsn2b0aee0ca923'):
    """
    "Top headlines"
    country: 2-letter country code
        category: business, science, sports, technology, ...
        
    """
    url = f"https://news-headlines-api.p.rapidapi.com/v1/headlines"
    querystring = {}
    if country:
        querystring['country'] = country
    if category:
        querystring['category'] = category
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "news-headlines-api.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

