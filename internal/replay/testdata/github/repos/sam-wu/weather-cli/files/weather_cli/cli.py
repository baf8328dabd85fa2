import argparse
import os
import sys

from weather_cli.api import get_current_weather, get_forecast
from weather_cli.render import render_current, render_forecast


def main(argv=None):
    parser = argparse.ArgumentParser(prog="weather", description="Weather in your terminal")
    parser.add_argument("city")
    parser.add_argument("-d", "--days", type=int, default=0, help="show an N-day forecast")
    parser.add_argument("--key", default=os.environ.get("RAPIDAPI_KEY"), help="RapidAPI key")
    args = parser.parse_args(argv)
    if not args.key:
        parser.error("no API key: pass --key or set RAPIDAPI_KEY")
    try:
        if args.days:
            print(render_forecast(args.city, get_forecast(args.city, args.key, args.days)))
        else:
            print(render_current(args.city, get_current_weather(args.city, args.key)))
    except Exception as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
