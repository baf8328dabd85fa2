import logging
import os

import requests

log = logging.getLogger(__name__)

SMS_ENDPOINT = "https://sms-sender.p.rapidapi.com/send"


class SmsGateway:
    def __init__(self, sender="ALERTS"):
        self.sender = sender
        self.http = requests.Session()
        self.http.headers.update({
            "X-RapidAPI-Key": os.environ["SMS_RAPIDAPI_KEY"],
            "X-RapidAPI-Host": "sms-sender.p.rapidapi.com",
        })

    def send(self, to, message):
        """Send one SMS; messages longer than 160 chars are truncated by the provider."""
        try:
            resp = self.http.post(SMS_ENDPOINT, data={"to": to, "message": message, "sender": self.sender}, timeout=10)
        except requests.RequestException:
            log.exception("SMS to %s failed", to)
            return False
        if not resp.ok:
            log.error("SMS provider said %s: %s", resp.status_code, resp.text[:200])
        return resp.ok

    def broadcast(self, numbers, message):
        return {n: self.send(n, message) for n in numbers}
