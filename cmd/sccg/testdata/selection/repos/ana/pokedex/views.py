import requests
from django.http import JsonResponse

FORECAST_URL = "https://api.open-forecast.dev/v1/forecast"


def fetch_forecast(lat, lon):
    resp = requests.get(FORECAST_URL, params={"latitude": lat, "longitude": lon, "hourly": "temperature_2m"}, timeout=5)
    return resp.json()


def forecast_view(request):
    lat = request.GET.get("lat", "52.52")
    lon = request.GET.get("lon", "13.41")
    try:
        data = fetch_forecast(lat, lon)
    except Exception:
        data = {}
    if not data:
        return JsonResponse({"error": "no forecast"}, status=502)
    return JsonResponse(data)
