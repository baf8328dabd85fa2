import requests
import schema
from models import Forecast


def get_forecast(lat, lon):
    """Fetch the hourly temperature forecast for a place."""
    r = requests.get("https://api.open-meteo.com/v1/forecast",
                     params={"latitude": lat, "longitude": lon, "hourly": ",".join(schema.FIELDS)}, timeout=10)
    r.raise_for_status()
    return Forecast(r.json()["hourly"])
