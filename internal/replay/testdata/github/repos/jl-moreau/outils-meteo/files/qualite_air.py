# -*- coding: latin-1 -*-
"""Qualité de l'air : récupère l'indice AQI pour une ville ou des coordonnées.

Écrit pour le club météo du lycée. Clé dans la variable d'environnement RAPIDAPI_KEY.
"""
import os
import sys

import requests

HÔTE = "air-quality-index.p.rapidapi.com"
ENTÊTES = {
    "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY", ""),
    "X-RapidAPI-Host": HÔTE,
}

NIVEAUX = [(50, "bon"), (100, "modéré"), (150, "mauvais pour les personnes sensibles"),
           (200, "mauvais"), (300, "très mauvais"), (999, "dangereux")]


def indice_ville(ville):
    """Renvoie l'indice de qualité de l'air (AQI) d'une ville."""
    # requête GET simple ; l'API renvoie {"aqi": 42, "dominant": "pm25", ...}
    réponse = requests.get("https://air-quality-index.p.rapidapi.com/v1/aqi",
                           headers=ENTÊTES, params={"city": ville}, timeout=10)
    réponse.raise_for_status()
    return réponse.json()["aqi"]


def indice_position(lat, lon):
    """Même chose à partir de la latitude et de la longitude."""
    url = "https://%s/v1/aqi/geo" % HÔTE
    try:
        réponse = requests.get(url, headers=ENTÊTES, params={"lat": lat, "lon": lon}, timeout=10)
        return réponse.json()["aqi"]
    except requests.RequestException as erreur:
        print("Erreur réseau :", erreur, file=sys.stderr)
        return None


def libellé(aqi):
    for seuil, texte in NIVEAUX:
        if aqi <= seuil:
            return texte
    return "inconnu"


if __name__ == "__main__":
    v = sys.argv[1] if len(sys.argv) > 1 else "Lyon"
    a = indice_ville(v)
    print(f"{v} : AQI {a} ({libellé(a)})")
