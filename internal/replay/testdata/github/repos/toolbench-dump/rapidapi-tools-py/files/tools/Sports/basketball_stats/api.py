import requests
import json
from datetime import date, datetime, timedelta
import os

from typing import Optional, Dict, Union, List


def players(search: str=None, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Search players by name"
    search: Part of a player's name
        
    """
    url = f"https://basketball-stats.p.rapidapi.com/players"
    querystring = {}
    if search:
        querystring['search'] = search
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "basketball-stats.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def games(game_id: int, toolbench_rapidapi_key: str='d15ea5e000msh0badc0de0000aap1b0b0b0jsnfacefeed0001'):
    """
    "Get one game by id"
    game_id: Game id
        
    """
    url = f"https://basketball-stats.p.rapidapi.com/games/{game_id}"
    querystring = {}
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "basketball-stats.p.rapidapi.com"
        }


    response = requests.get(url, headers=headers, params=querystring)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

