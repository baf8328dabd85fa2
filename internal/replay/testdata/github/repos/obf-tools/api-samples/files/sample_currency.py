import requests
import os


def func01(param01, param02, param03):
    var01 = "https://currency-converter-pro.p.rapidapi.com/convert"
    var02 = {"from": param01, "to": param02, "amount": param03}
    var03 = {
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "currency-converter-pro.p.rapidapi.com",
    }
    result01 = requests.get(var01, headers=var03, params=var02)
    result02 = result01.json()
    return result02


def func02():
    var01 = "https://currency-converter-pro.p.rapidapi.com/symbols"
    var02 = {
        "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "currency-converter-pro.p.rapidapi.com",
    }
    result01 = requests.get(var01, headers=var02)
    return result01.json()
