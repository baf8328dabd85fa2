import http.client
import os
from urllib.parse import urlencode


def send_sms(to, message, sender="NOTIFY"):
    conn = http.client.HTTPSConnection("sms-sender.p.rapidapi.com")
    payload = urlencode({"to": to, "message": message, "sender": sender})
    headers = {
        "content-type": "application/x-www-form-urlencoded",
        "X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"],
        "X-RapidAPI-Host": "sms-sender.p.rapidapi.com",
    }
    conn.request("POST", "/send", payload, headers)
    res = conn.getresponse()
    body = res.read().decode("utf-8")
    conn.close()
    return res.status, body
