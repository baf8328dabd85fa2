import json
import os
import urllib.parse
import urllib.request

from flask import Flask, render_template, request

app = Flask(__name__)

MOVIE_HOST = "movie-database-alt.p.rapidapi.com"
LYRICS_HOST = "lyrics-finder.p.rapidapi.com"
KEY = os.environ.get("RAPIDAPI_KEY", "")


def rapid_get(host, path, **params):
    """Small urllib helper so we don't need requests on the Pi."""
    url = "https://" + host + path
    if params:
        url += "?" + urllib.parse.urlencode(params)
    req = urllib.request.Request(url, headers={"x-rapidapi-key": KEY, "x-rapidapi-host": host})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read().decode("utf-8"))


@app.route("/")
def index():
    q = request.args.get("q", "")
    results = rapid_get(MOVIE_HOST, "/titles/search/title/" + urllib.parse.quote(q)) if q else {}
    return render_template("index.html", q=q, results=results.get("results", []))


@app.route("/title/<imdb_id>")
def title(imdb_id):
    ratings = rapid_get(MOVIE_HOST, f"/titles/{imdb_id}/ratings")
    return render_template("title.html", ratings=ratings)


@app.route("/song")
def song():
    hits = rapid_get(LYRICS_HOST, "/search", q=request.args["q"]).get("hits", [])
    lyrics = rapid_get(LYRICS_HOST, "/songs/%s/lyrics" % hits[0]["id"]) if hits else None
    return render_template("song.html", hits=hits, lyrics=lyrics)
