import os

import requests

BASE = "https://basketball-stats.p.rapidapi.com"
HEADERS = {
    "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY"),
    "X-RapidAPI-Host": "basketball-stats.p.rapidapi.com",
}


def get_game(game_id):
    r = requests.get("{}/games/{}".format(BASE, game_id), headers=HEADERS)
    r.raise_for_status()
    return r.json()["response"][0]


def search_players(name):
    r = requests.get(BASE + "/players", headers=HEADERS, params={"search": name})
    r.raise_for_status()
    return r.json()["response"]


def box_score(game_id):
    # live box scores are on another path that isn't in the docs
    r = requests.get("{}/games/{}/boxscore".format(BASE, game_id), headers=HEADERS)
    return r.json() if r.ok else None


def games_range(first_id, last_id):
    out = []
    for gid in range(first_id, last_id + 1):
        try:
            out.append(get_game(gid))
        except requests.HTTPError:
            continue
    return out
