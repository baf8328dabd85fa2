import requests
import json
from datetime import date, datetime, timedelta
import os

from typing import Optional, Dict, Union, List


def titles_search_title(title: str, exact: bool=None, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Search titles by (part of) the title"
    title: Title of the movie or series
        exact: Exact match only
        
    """
    url = f"https://movie-database-alt.p.rapidapi.com/titles/search/title/{title}"
    querystring = {}
    if exact:
        querystring['exact'] = exact
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "movie-database-alt.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def titles_id_ratings(id: str, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Ratings of a title"
    id: IMDb id, e.g. tt0111161
        
    """
    url = f"https://movie-database-alt.p.rapidapi.com/titles/{id}/ratings"
    querystring = {}
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "movie-database-alt.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

