import time

import requests
from django.conf import settings
from django.core.management.base import BaseCommand

from reviews.models import Review


class Command(BaseCommand):
    help = "Score every review that has no sentiment score yet"

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=500)
        parser.add_argument("--sleep", type=float, default=0.2)

    def handle(self, *args, **opts):
        headers = {
            "content-type": "application/json",
            "X-RapidAPI-Key": settings.RAPIDAPI_KEY,
            "X-RapidAPI-Host": "sentiment-analyzer.p.rapidapi.com",
        }
        todo = Review.objects.filter(score__isnull=True)[: opts["limit"]]
        done = 0
        for review in todo:
            resp = requests.post("https://sentiment-analyzer.p.rapidapi.com/sentiment",
                                 json={"text": review.body, "lang": review.lang or "en"}, headers=headers)
            if resp.ok:
                review.score = resp.json()["score"]
                review.save(update_fields=["score"])
                done += 1
            time.sleep(opts["sleep"])
        self.stdout.write(self.style.SUCCESS(f"scored {done} reviews"))
