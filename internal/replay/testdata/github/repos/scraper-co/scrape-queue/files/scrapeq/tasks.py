import os

import requests
from celery import Celery
from celery.utils.log import get_task_logger

app = Celery("scrapeq", broker=os.environ.get("BROKER_URL", "redis://localhost:6379/0"))
logger = get_task_logger(__name__)

SCRAPER = "https://web-page-scraper.p.rapidapi.com"
SCRAPER_HEADERS = {
    "content-type": "application/json",
    "X-RapidAPI-Key": os.environ["SCRAPER_RAPIDAPI_KEY"],
    "X-RapidAPI-Host": "web-page-scraper.p.rapidapi.com",
}


class JobNotReady(Exception):
    pass


@app.task(bind=True, max_retries=5, default_retry_delay=10)
def submit(self, url, render_js=True):
    """Queue a page on the scraping API; returns the job id."""
    try:
        resp = requests.post(f"{SCRAPER}/scrape", json={"url": url, "render_js": render_js},
                             headers=SCRAPER_HEADERS, timeout=20)
        resp.raise_for_status()
    except requests.RequestException as exc:
        logger.warning("submit %s failed: %s", url, exc)
        raise self.retry(exc=exc)
    job_id = resp.json()["job_id"]
    collect.apply_async((job_id,), countdown=5)
    return job_id


@app.task(bind=True, max_retries=30, default_retry_delay=5)
def collect(self, job_id):
    resp = requests.get(f"{SCRAPER}/status/{job_id}", headers=SCRAPER_HEADERS, timeout=20)
    state = resp.json().get("state")
    if state in ("queued", "running"):
        raise self.retry(exc=JobNotReady(job_id))
    if state == "failed":
        logger.error("job %s failed", job_id)
        return None
    store(job_id, resp.json()["html"])
    return job_id


def store(job_id, html):
    path = os.path.join(os.environ.get("OUT_DIR", "/var/lib/scrapeq"), f"{job_id}.html")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(html)
