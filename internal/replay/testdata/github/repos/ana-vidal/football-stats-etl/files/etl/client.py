import os

import requests

from etl.retry import retry

API_HOST = "football-live-scores.p.rapidapi.com"


class FootballClient:
    """Wraps the Football Live Scores API with one keep-alive session."""

    base_url = f"https://{API_HOST}"

    def __init__(self, api_key=None, timeout=20):
        self.session = requests.Session()
        self.session.headers.update({
            "X-RapidAPI-Key": api_key or os.environ["FOOTBALL_API_KEY"],
            "X-RapidAPI-Host": API_HOST,
        })
        self.timeout = timeout

    @retry(times=4, exceptions=(requests.ConnectionError, requests.Timeout))
    def fixtures(self, league, season, date=None):
        params = {"league": league, "season": season}
        if date:
            params["date"] = date
        r = self.session.get(f"{self.base_url}/fixtures", params=params, timeout=self.timeout)
        r.raise_for_status()
        return r.json()["response"]

    @retry(times=4, exceptions=(requests.ConnectionError, requests.Timeout))
    def standings(self, league, season):
        r = self.session.get(self.base_url + "/standings",
                             params={"league": league, "season": season},
                             timeout=self.timeout)
        r.raise_for_status()
        table = r.json()["response"]
        return table[0]["league"]["standings"][0] if table else []

    def team_statistics(self, team_id, season):
        url = f"{self.base_url}/teams/{team_id}/statistics"
        r = self.session.get(url, params={"season": season}, timeout=self.timeout)
        if r.status_code == 404:
            return None
        r.raise_for_status()
        return r.json()

    def close(self):
        self.session.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
