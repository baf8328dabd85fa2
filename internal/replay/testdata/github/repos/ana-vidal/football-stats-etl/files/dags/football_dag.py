from datetime import datetime, timedelta
import os

import psycopg2
import requests
from airflow import DAG
from airflow.operators.python import PythonOperator

default_args = {"retries": 2, "retry_delay": timedelta(minutes=5)}


def make_fetcher(league):
    headers = {
        "x-rapidapi-key": os.environ["FOOTBALL_API_KEY"],
        "x-rapidapi-host": "football-live-scores.p.rapidapi.com",
    }

    def fetch(season, **context):
        # pull today's fixtures and store the raw json for the dbt models
        resp = requests.get(
            "https://football-live-scores.p.rapidapi.com/fixtures",
            headers=headers,
            params={"league": league, "season": season, "date": context["ds"]},
        )
        conn = psycopg2.connect(os.environ["WAREHOUSE_DSN"])
        with conn, conn.cursor() as cur:
            cur.execute("INSERT INTO raw.fixtures (league, payload) VALUES (%s, %s)", (league, resp.text))
        conn.close()

    return fetch


with DAG("football_daily", start_date=datetime(2022, 8, 1), schedule="@daily",
         default_args=default_args, catchup=False) as dag:
    for league in (39, 140, 135, 78):
        PythonOperator(task_id=f"fixtures_{league}", python_callable=make_fetcher(league),
                       op_kwargs={"season": 2022})
