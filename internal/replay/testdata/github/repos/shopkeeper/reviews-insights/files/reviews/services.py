"""Calls to the NLP providers. Kept out of the views so they can be mocked in tests."""
import logging

import requests
from django.conf import settings

logger = logging.getLogger(__name__)

TRANSLATOR = "https://text-translator-ai.p.rapidapi.com"
SENTIMENT = "https://sentiment-analyzer.p.rapidapi.com"


def _headers(host):
    return {
        "Content-Type": "application/json",
        "X-RapidAPI-Key": settings.RAPIDAPI_KEY,
        "X-RapidAPI-Host": host,
    }


def translate_review(text, target="en"):
    """Translate a customer review to `target`; returns the original text on failure."""
    try:
        r = requests.post(TRANSLATOR + "/translate", json={"text": text, "target": target},
                          headers=_headers("text-translator-ai.p.rapidapi.com"), timeout=10)
        r.raise_for_status()
    except requests.RequestException:
        logger.warning("translation failed, keeping original", exc_info=True)
        return text
    return r.json()["translatedText"]


def sentiment_score(text):
    r = requests.post(SENTIMENT + "/sentiment", json={"text": text},
                      headers=_headers("sentiment-analyzer.p.rapidapi.com"), timeout=10)
    r.raise_for_status()
    return r.json()["score"]


def supported_languages():
    r = requests.get(TRANSLATOR + "/languages", headers=_headers("text-translator-ai.p.rapidapi.com"))
    return [lang["code"] for lang in r.json()] if r.status_code == 200 else ["en"]
