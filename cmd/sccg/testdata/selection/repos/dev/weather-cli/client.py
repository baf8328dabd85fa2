import requests

API = "https://api.open-forecast.dev"


def _get(url, **params):
    r = requests.get(url, params=params, timeout=10)
    r.raise_for_status()
    return r.json()


def get_forecast(lat, lon):
    """Hourly temperatures for a place."""
    return _get(f"{API}/v1/forecast", latitude=lat, longitude=lon, hourly="temperature_2m")


def main():
    try:
        print(get_forecast(48.85, 2.35))
    except requests.HTTPError as e:
        print("failed:", e)


if __name__ == "__main__":
    main()
