import requests
from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.views import View

HOST = "hotel-search-engine.p.rapidapi.com"


def _api_headers():
    return {"X-RapidAPI-Key": settings.RAPIDAPI_KEY, "X-RapidAPI-Host": HOST}


def search_locations(request):
    query = request.GET.get("q")
    if not query:
        return render(request, "hotels/search.html")
    response = requests.get(
        "https://hotel-search-engine.p.rapidapi.com/locations/search",
        headers=_api_headers(),
        params={"query": query, "locale": request.LANGUAGE_CODE or "en-gb"},
    )
    locations = response.json() if response.status_code == 200 else []
    return render(request, "hotels/search.html", {"locations": locations, "q": query})


def hotel_results(request):
    params = {
        "dest_id": request.GET["dest_id"],
        "checkin": request.GET["checkin"],
        "checkout": request.GET["checkout"],
        "adults": request.GET.get("adults", 2),
    }
    url = "https://%s/hotels/search" % HOST
    try:
        r = requests.get(url, headers=_api_headers(), params=params, timeout=15)
        r.raise_for_status()
    except requests.RequestException:
        return render(request, "hotels/results.html", {"error": True})
    hotels = sorted(r.json().get("result", []), key=lambda h: h.get("min_total_price", 1e9))
    return render(request, "hotels/results.html", {"hotels": hotels})


class HotelReviewsView(View):
    def get(self, request, hotel_id):
        page = int(request.GET.get("page", 1))
        url = "https://hotel-search-engine.p.rapidapi.com/hotels/{}/reviews".format(hotel_id)
        r = requests.get(url, headers=_api_headers(), params={"page": page})
        return JsonResponse(r.json(), safe=False)
