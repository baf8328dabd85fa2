import requests
from django.conf import settings
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Review
from .services import sentiment_score, translate_review


class ReviewInsightView(APIView):
    def post(self, request, pk):
        review = Review.objects.get(pk=pk)
        english = translate_review(review.body)
        review.score = sentiment_score(english)
        review.save(update_fields=["score"])
        return Response({"id": review.pk, "score": review.score})


@api_view(["POST"])
def entities_view(request):
    text = request.data.get("text")
    if not text:
        return Response({"detail": "text required"}, status=status.HTTP_400_BAD_REQUEST)
    r = requests.post(
        "https://sentiment-analyzer.p.rapidapi.com/entities",
        json={"text": text},
        headers={"x-rapidapi-key": settings.RAPIDAPI_KEY, "x-rapidapi-host": "sentiment-analyzer.p.rapidapi.com"},
        timeout=10,
    )
    if r.status_code != 200:
        return Response({"detail": "provider error"}, status=status.HTTP_502_BAD_GATEWAY)
    return Response(r.json())
