"""Données des stations météo (Open Meteo Data sur RapidAPI)."""
import os
from urllib.parse import urljoin

import pandas as pd
import requests

BASE = "https://open-meteo-data.p.rapidapi.com/"
ENTETES = {
    "x-rapidapi-key": os.environ.get("RAPIDAPI_KEY", ""),
    "x-rapidapi-host": "open-meteo-data.p.rapidapi.com",
}


def stations_proches(lat, lon, limite=5):
    r = requests.get(urljoin(BASE, "stations/nearby"), headers=ENTETES,
                     params={"lat": lat, "lon": lon, "limit": limite})
    r.raise_for_status()
    return pd.DataFrame(r.json()["data"])


def releves_journaliers(station, debut, fin):
    """Relevés quotidiens d'une station entre deux dates (AAAA-MM-JJ)."""
    r = requests.get(urljoin(BASE, "stations/daily"), headers=ENTETES,
                     params={"station": station, "start": debut, "end": fin})
    r.raise_for_status()
    df = pd.DataFrame(r.json()["data"])
    df["date"] = pd.to_datetime(df["date"])
    return df.set_index("date")


def horaire_point(lat, lon, debut, fin):
    url = "{}{}".format(BASE, "point/hourly")
    r = requests.get(url, headers=ENTETES, params={"lat": lat, "lon": lon, "start": debut, "end": fin})
    return pd.DataFrame(r.json().get("data", []))
