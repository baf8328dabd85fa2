#!/usr/bin/env python3
"""Build a small HTML digest of today's news for my topics and e-mail it to me."""
import datetime
import smtplib
from email.mime.text import MIMEText

import requests

RAPIDAPI_KEY = "cccc3fc162msh6e53a13043b026p1c48bbfjsn33feff9243a8"
NEWS = "https://news-headlines-api.p.rapidapi.com"
TOPICS = ["climate", "open source", "formula 1"]
MAIL_FROM = "digest-bot@example.net"
MAIL_TO = "h.lindqvist@example.net"
SMTP_PASSWORD = "hunter2-not-really"


def search(topic, since):
    resp = requests.get(
        NEWS + "/v1/search",
        headers={"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "news-headlines-api.p.rapidapi.com"},
        params={"q": topic, "from": since, "sort_by": "relevancy"},
    )
    return resp.json().get("articles", [])[:5]


def headlines(country="se", category="technology"):
    resp = requests.get(
        "https://news-headlines-api.p.rapidapi.com/v1/headlines",
        headers={"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "news-headlines-api.p.rapidapi.com"},
        params={"country": country, "category": category},
    )
    return resp.json().get("articles", [])[:10]


def build_html():
    since = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
    parts = ["<h1>Daily digest</h1>"]
    for topic in TOPICS:
        parts.append(f"<h2>{topic}</h2><ul>")
        for a in search(topic, since):
            parts.append(f'<li><a href="{a["url"]}">{a["title"]}</a></li>')
        parts.append("</ul>")
    return "\n".join(parts)


def send(html):
    msg = MIMEText(html, "html")
    msg["Subject"] = f"News digest {datetime.date.today()}"
    msg["From"], msg["To"] = MAIL_FROM, MAIL_TO
    with smtplib.SMTP_SSL("smtp.example.net", 465) as s:
        s.login(MAIL_FROM, SMTP_PASSWORD)
        s.send_message(msg)


if __name__ == "__main__":
    send(build_html())
