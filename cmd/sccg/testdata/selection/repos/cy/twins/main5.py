import requests


def get_archive(lat, lon, start, end):
    url = "https://api.open-forecast.dev/v1/archive"
    params = {"latitude": lat, "longitude": lon, "start_date": start, "end_date": end}
    resp = requests.get(url, params=params)
    return resp.json()["daily"]
