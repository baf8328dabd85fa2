import requests
import os


def func01(param01):
    var01 = f"https://basketball-stats.p.rapidapi.com/games/{param01}"
    var02 = {
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "basketball-stats.p.rapidapi.com",
    }
    result01 = requests.get(var01, headers=var02)
    if result01.status_code == 200:
        return result01.json()
    return None


def func02(param01, param02):
    var01 = "https://football-live-scores.p.rapidapi.com/standings"
    var02 = {"league": param01, "season": param02}
    var03 = {
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "football-live-scores.p.rapidapi.com",
    }
    result01 = requests.get(var01, headers=var03, params=var02)
    result02 = result01.json()
    return result02


def func03(param01):
    var01 = f"https://formula-one-results.p.rapidapi.com/races/{param01}"
    var02 = {
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "formula-one-results.p.rapidapi.com",
    }
    result01 = requests.get(var01, headers=var02)
    return result01.json()
