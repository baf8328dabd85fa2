"""Synchronous one-off scrape for debugging: submit, wait, print."""
import os
import sys
import time

import requests

s = requests.Session()
s.headers.update({
    "X-RapidAPI-Key": os.environ["SCRAPER_RAPIDAPI_KEY"],
    "X-RapidAPI-Host": "web-page-scraper.p.rapidapi.com",
})


def scrape_now(url, timeout=120):
    job = s.post("https://web-page-scraper.p.rapidapi.com/scrape", json={"url": url}).json()
    deadline = time.time() + timeout
    while time.time() < deadline:
        st = s.get("https://web-page-scraper.p.rapidapi.com/status/" + job["job_id"]).json()
        if st["state"] == "done":
            return st["html"]
        time.sleep(3)
    raise TimeoutError(url)


if __name__ == "__main__":
    print(scrape_now(sys.argv[1])[:2000])
