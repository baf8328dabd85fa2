import logging

import pandas as pd
from sqlalchemy import create_engine

from etl.client import FootballClient

log = logging.getLogger(__name__)

LEAGUES = {39: "Premier League", 140: "La Liga", 135: "Serie A", 78: "Bundesliga"}


def flatten_fixtures(raw):
    rows = []
    for item in raw:
        fx, teams, goals = item["fixture"], item["teams"], item["goals"]
        rows.append({
            "fixture_id": fx["id"],
            "kickoff": fx["date"],
            "home": teams["home"]["name"],
            "away": teams["away"]["name"],
            "home_goals": goals["home"],
            "away_goals": goals["away"],
        })
    return pd.DataFrame(rows)


def run(season, dsn):
    engine = create_engine(dsn)
    with FootballClient() as client:
        for league_id, name in LEAGUES.items():
            log.info("loading %s %s", name, season)
            df = flatten_fixtures(client.fixtures(league_id, season))
            df["league_id"] = league_id
            df.to_sql("fixtures", engine, if_exists="append", index=False)
            table = pd.json_normalize(client.standings(league_id, season))
            table.to_sql("standings", engine, if_exists="append", index=False)
