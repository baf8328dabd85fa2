import requests
import os


def func01(param01, param02):
    var01 = "https://text-translator-ai.p.rapidapi.com/translate"
    var02 = {"text": param01, "target": param02}
    var03 = {
        "content-type": "application/json",
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "text-translator-ai.p.rapidapi.com",
    }
    result01 = requests.post(var01, json=var02, headers=var03)
    return result01.json()


def func02(param01):
    var01 = "https://spell-check-plus.p.rapidapi.com/check"
    var02 = {"text": param01}
    var03 = {
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "spell-check-plus.p.rapidapi.com",
    }
    result01 = requests.get(var01, headers=var03, params=var02)
    return result01.json()
