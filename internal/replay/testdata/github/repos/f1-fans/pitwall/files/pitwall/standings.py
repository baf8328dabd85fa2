import os

import httpx

POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def championship(season: int) -> list[tuple[str, int]]:
    """Compute driver standings from all race results of a season (sync, for the CLI)."""
    headers = {
        "x-rapidapi-key": os.environ["F1_RAPIDAPI_KEY"],
        "x-rapidapi-host": "formula-one-results.p.rapidapi.com",
    }
    with httpx.Client(headers=headers) as client:
        races = client.get(f"https://formula-one-results.p.rapidapi.com/races/{season}").json()["races"]
    table: dict[str, int] = {}
    for race in races:
        for pos, driver in enumerate(race.get("results", [])[:10]):
            table[driver["name"]] = table.get(driver["name"], 0) + POINTS[pos]
    return sorted(table.items(), key=lambda kv: -kv[1])
