from prefect import flow, get_run_logger

from flows.extract import daily_trends, interest_over_time, trending_fallback
from flows.load import load

GEOS = ["US", "GB", "DE", "IN", "BR"]
KEYWORDS = ["python", "rust", "duckdb"]


@flow(name="trends-daily")
def trends_daily():
    log = get_run_logger()
    for geo in GEOS:
        try:
            df = daily_trends(geo)
        except Exception:
            log.warning("primary provider failed for %s, using fallback", geo)
            df = trending_fallback(geo)
        log.info("%s: %d rows", geo, load(df, "daily_trends"))
    for kw in KEYWORDS:
        load(interest_over_time(kw), "interest")


if __name__ == "__main__":
    trends_daily()
