import sys
import time

import requests

from logger.compare import API, HDRS, nearest_station


def daily(station, start, end):
    resp = requests.get(API + "/stations/daily", headers=HDRS,
                        params={"station": station, "start": start, "end": end})
    if resp.status_code == 429:
        time.sleep(60)
        return daily(station, start, end)
    return resp.json()["data"]


if __name__ == "__main__":
    st = nearest_station()
    for row in daily(st, sys.argv[1], sys.argv[2]):
        print(row["date"], row["tavg"], row["prcp"])
