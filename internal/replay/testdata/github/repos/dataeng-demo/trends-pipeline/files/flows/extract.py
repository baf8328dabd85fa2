"""Extract tasks: pull raw trend payloads from two RapidAPI providers."""
import os

import pandas as pd
import requests
from prefect import task

PRIMARY_HOST = "realtime-google-trends.p.rapidapi.com"
FALLBACK_HOST = "google-realtime-trends-data-api.p.rapidapi.com"
URL_TEMPLATE = "https://{host}{path}"


def _headers(host):
    return {"X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"], "X-RapidAPI-Host": host}


@task(retries=3, retry_delay_seconds=30)
def daily_trends(geo: str) -> pd.DataFrame:
    url = URL_TEMPLATE.format(host=PRIMARY_HOST, path="/trends/daily")
    resp = requests.get(url, headers=_headers(PRIMARY_HOST), params={"geo": geo}, timeout=30)
    resp.raise_for_status()
    df = pd.json_normalize(resp.json()["trends"])
    df["geo"] = geo
    return df


@task(retries=3, retry_delay_seconds=30)
def interest_over_time(keyword: str, timeframe: str = "today 12-m") -> pd.DataFrame:
    url = "https://%s/trends/interest" % PRIMARY_HOST
    resp = requests.get(url, headers=_headers(PRIMARY_HOST),
                        params={"keyword": keyword, "timeframe": timeframe}, timeout=30)
    resp.raise_for_status()
    points = resp.json()["timeline"]
    return pd.DataFrame(points).assign(keyword=keyword)


@task
def trending_fallback(country: str) -> pd.DataFrame:
    """Used when the primary provider returns 429 for the day."""
    resp = requests.get(
        "https://google-realtime-trends-data-api.p.rapidapi.com/v2/trending",
        headers=_headers(FALLBACK_HOST),
        params={"country": country},
    )
    if resp.status_code != 200:
        return pd.DataFrame()
    return pd.DataFrame(resp.json()["trends"]).assign(geo=country)


@task
def related_queries(keyword: str) -> list:
    # the v1 related endpoint moved, this still answers for now
    url = URL_TEMPLATE.format(host=PRIMARY_HOST, path="/related")
    resp = requests.get(url, headers=_headers(PRIMARY_HOST), params={"keyword": keyword})
    return resp.json().get("queries", [])
