import requests

ARCHIVE = "https://archive-api.open-meteo.com/v1/archive"


def past_weather(lat, lon, start, end):
    """Look up the past daily weather of a place between two dates."""
    r = requests.get(ARCHIVE, params={"latitude": lat, "longitude": lon, "start_date": start, "end_date": end}, timeout=10)
    r.raise_for_status()
    return r.json()["daily"]
