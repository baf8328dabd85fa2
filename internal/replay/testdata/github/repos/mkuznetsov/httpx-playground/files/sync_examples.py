# httpx sync API, mostly mirrors requests
import os
import time

import httpx

KEY = os.getenv("RAPIDAPI_KEY")


def movie_search(title, exact=False):
    r = httpx.get(
        f"https://movie-database-alt.p.rapidapi.com/titles/search/title/{title}",
        params={"exact": str(exact).lower()},
        headers={"X-RapidAPI-Key": KEY, "X-RapidAPI-Host": "movie-database-alt.p.rapidapi.com"},
    )
    r.raise_for_status()
    return r.json()["results"]


def lyrics_for(query):
    """Find a song by free text and return the lyrics of the best hit."""
    headers = {"X-RapidAPI-Key": KEY, "X-RapidAPI-Host": "lyrics-finder.p.rapidapi.com"}
    with httpx.Client(base_url="https://lyrics-finder.p.rapidapi.com", headers=headers, timeout=10.0) as client:
        hits = client.get("/search", params={"q": query}).json().get("hits", [])
        if not hits:
            return None
        song_id = hits[0]["id"]
        resp = client.get(f"/songs/{song_id}/lyrics")
        return resp.json()["lyrics"] if resp.is_success else None


def scrape(url, render_js=False, poll=2.0):
    # submit a job, then poll the status endpoint until it's done
    headers = {
        "content-type": "application/json",
        "X-RapidAPI-Key": KEY,
        "X-RapidAPI-Host": "web-page-scraper.p.rapidapi.com",
    }
    job = httpx.post("https://web-page-scraper.p.rapidapi.com/scrape",
                     json={"url": url, "render_js": render_js}, headers=headers).json()
    while True:
        st = httpx.get(f"https://web-page-scraper.p.rapidapi.com/status/{job['job_id']}", headers=headers).json()
        if st["state"] in ("done", "failed"):
            return st
        time.sleep(poll)


if __name__ == "__main__":
    print(movie_search("Inception")[:2])
