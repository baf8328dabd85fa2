"""Dump today's market movers to CSV (used by the weekly email)."""
import argparse
import csv
import datetime as dt
import os
import sys

import requests


def fetch_movers(region, limit=25):
    resp = requests.get(
        "https://realtime-stock-quotes.p.rapidapi.com/market/movers",
        headers={
            "X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"],
            "X-RapidAPI-Host": "realtime-stock-quotes.p.rapidapi.com",
        },
        # `limit` isn't in the docs but the API honours it
        params={"region": region, "limit": limit},
        timeout=15,
    )
    resp.raise_for_status()
    body = resp.json()
    return [dict(row, side="gainer") for row in body["gainers"]] + [dict(row, side="loser") for row in body["losers"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--region", default="US")
    ap.add_argument("--out", default=f"movers-{dt.date.today()}.csv")
    args = ap.parse_args()
    rows = fetch_movers(args.region)
    if not rows:
        sys.exit("no data")
    with open(args.out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=sorted(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {len(rows)} rows to {args.out}")


if __name__ == "__main__":
    main()
