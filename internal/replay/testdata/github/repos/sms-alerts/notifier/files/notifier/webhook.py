import os

from flask import Flask, abort, request

from notifier.sms import SmsGateway

app = Flask(__name__)
gateway = SmsGateway()
ON_CALL = [n for n in os.environ.get("ON_CALL_NUMBERS", "").split(",") if n]


@app.post("/alertmanager")
def alertmanager():
    payload = request.get_json(silent=True) or abort(400)
    firing = [a for a in payload.get("alerts", []) if a.get("status") == "firing"]
    if not firing:
        return {"sent": 0}
    text = "; ".join(a["labels"].get("alertname", "?") for a in firing)[:150]
    results = gateway.broadcast(ON_CALL, f"[FIRING] {text}")
    return {"sent": sum(results.values())}
