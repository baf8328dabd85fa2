"""Pick tonight's movie: highest rated title among the candidates in movies.txt."""
import os
import sys

import requests

HEADERS = {
    "X-RapidAPI-Key": os.environ.get("RAPIDAPI_KEY", ""),
    "X-RapidAPI-Host": "movie-database-alt.p.rapidapi.com",
}


def rating(imdb_id):
    r = requests.get(f"https://movie-database-alt.p.rapidapi.com/titles/{imdb_id}/ratings", headers=HEADERS)
    if r.status_code != 200:
        return 0.0
    return float(r.json().get("averageRating") or 0)


if __name__ == "__main__":
    ids = [line.split()[0] for line in open(sys.argv[1] if len(sys.argv) > 1 else "movies.txt") if line.strip()]
    best = max(ids, key=rating)
    print("tonight:", best)
