import duckdb
import pandas as pd
from prefect import task

DB_PATH = "warehouse/trends.duckdb"


@task
def load(df: pd.DataFrame, table: str):
    if df.empty:
        return 0
    con = duckdb.connect(DB_PATH)
    con.register("incoming", df)
    con.execute(f"CREATE TABLE IF NOT EXISTS {table} AS SELECT * FROM incoming LIMIT 0")
    con.execute(f"INSERT INTO {table} SELECT * FROM incoming")
    con.close()
    return len(df)
