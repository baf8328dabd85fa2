import http.client
import json

API_HOST = "formula-one-results.p.rapidapi.com"
API_KEY = "SIGN-UP-FOR-KEY"


def races(season):
    conn = http.client.HTTPSConnection(API_HOST)
    conn.request("GET", "/races/" + str(season), headers={
        "X-RapidAPI-Key": API_KEY,
        "X-RapidAPI-Host": API_HOST,
    })
    return json.loads(conn.getresponse().read().decode())


def drivers(season=2021):
    conn = http.client.HTTPSConnection(API_HOST)
    conn.request("GET", "/drivers?season=%d" % season, headers={
        "X-RapidAPI-Key": API_KEY,
        "X-RapidAPI-Host": API_HOST,
    })
    return json.loads(conn.getresponse().read().decode())
