import requests
import json
from datetime import date, datetime, timedelta
import os

from typing import Optional, Dict, Union, List


def sentiment(text: str, lang: str=None, toolbench_rapidapi_key: str=''):
    """
    "Sentiment of a text"
    text: The text to analyse
        lang: ISO language code
        
    """
    url = f"https://sentiment-analyzer.p.rapidapi.com/sentiment"
    payload = {'text': text, }
    if lang:
        payload['lang'] = lang
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "sentiment-analyzer.p.rapidapi.com"
        }


    response = requests.post(url, headers=headers, json=payload)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def entities(text: str, toolbench_rapidapi_key: str=''):
    """
    "Named entities in a text"
    text: The text to analyse
        
    """
    url = f"https://sentiment-analyzer.p.rapidapi.com/entities"
    payload = {'text': text, }
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "sentiment-analyzer.p.rapidapi.com"
        }


    response = requests.post(url, headers=headers, json=payload)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

def emotions(text: str, toolbench_rapidapi_key: str=''):
    """
    "Emotion scores (beta)"
    text: The text to analyse
        
    """
    url = f"https://sentiment-analyzer.p.rapidapi.com/emotions"
    payload = {'text': text, }
    
    headers = {
            "X-RapidAPI-Key": toolbench_rapidapi_key,
            "X-RapidAPI-Host": "sentiment-analyzer.p.rapidapi.com"
        }


    response = requests.post(url, headers=headers, json=payload)
    try:
        observation = response.json()
    except:
        observation = response.text
    return observation

