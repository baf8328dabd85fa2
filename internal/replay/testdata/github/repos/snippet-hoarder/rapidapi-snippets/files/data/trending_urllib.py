import urllib.request

req = urllib.request.Request(
    "https://google-realtime-trends-data-api.p.rapidapi.com/v2/trending?country=US",
    headers={
        "X-RapidAPI-Key": "SIGN-UP-FOR-KEY",
        "X-RapidAPI-Host": "google-realtime-trends-data-api.p.rapidapi.com",
    },
)
with urllib.request.urlopen(req) as resp:
    print(resp.read().decode("utf-8"))
