import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = "django-insecure-t0p$ecret-change-me-8d1f2e"
DEBUG = True
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "hotels",
]

ROOT_URLCONF = "travelbook.urls"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": BASE_DIR / "db.sqlite3",
    }
}

# TODO move to .env before the demo!!
RAPIDAPI_KEY = os.environ.get("RAPIDAPI_KEY", "9b2e00f4a1msh0000decafbad00p1abcdefjsn0123456789ab")
HOTEL_API_HOST = "hotel-search-engine.p.rapidapi.com"

STATIC_URL = "static/"
