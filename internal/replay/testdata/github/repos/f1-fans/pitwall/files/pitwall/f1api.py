"""Async access to Formula One Results (RapidAPI)."""
import os
from functools import lru_cache

import httpx

F1_HOST = "formula-one-results.p.rapidapi.com"


@lru_cache
def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=f"https://{F1_HOST}",
        headers={"X-RapidAPI-Key": os.environ["F1_RAPIDAPI_KEY"], "X-RapidAPI-Host": F1_HOST},
        timeout=httpx.Timeout(10.0, connect=3.0),
    )


async def season_races(season: int) -> list[dict]:
    resp = await _client().get(f"/races/{season}")
    resp.raise_for_status()
    return resp.json()["races"]


async def season_drivers(season: int | None = None) -> list[dict]:
    params = {"season": season} if season else {}
    resp = await _client().get("/drivers", params=params)
    resp.raise_for_status()
    return resp.json()["drivers"]


async def race_results(season: int, round_no: int) -> dict:
    # per-race results aren't documented but /races/{season}/{round} answers
    resp = await _client().get(f"/races/{season}/{round_no}")
    if resp.status_code == 404:
        return {}
    return resp.json()
