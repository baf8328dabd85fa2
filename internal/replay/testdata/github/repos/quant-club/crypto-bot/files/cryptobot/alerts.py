import os

import requests

TELEGRAM_API = "https://api.telegram.org/bot{token}/sendMessage"


def notify(text):
    """Send a Telegram message to the trading channel."""
    token = os.environ["TG_TOKEN"]
    requests.post(TELEGRAM_API.format(token=token), data={"chat_id": os.environ["TG_CHAT"], "text": text}, timeout=5)
