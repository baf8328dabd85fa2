"""RapidAPI-backed checks used during customer onboarding."""
from __future__ import annotations

import logging
import os
from decimal import Decimal
from urllib.parse import urljoin

import requests

log = logging.getLogger(__name__)

IBAN_URL = "https://iban-validator.p.rapidapi.com/validate"
FX_BASE = "https://currency-converter-pro.p.rapidapi.com/"
EMAIL_HOST = "email-verifier.p.rapidapi.com"


class RapidChecks:
    """One session for all three providers; the host header is set per call."""

    def __init__(self, key: str | None = None, timeout: float = 10.0):
        self.session = requests.Session()
        self.session.headers["X-RapidAPI-Key"] = key or os.environ["PAYKIT_RAPIDAPI_KEY"]
        self.timeout = timeout

    def validate_iban(self, iban: str) -> bool:
        resp = self.session.post(
            IBAN_URL,
            data={"iban": iban.replace(" ", "")},
            headers={"X-RapidAPI-Host": "iban-validator.p.rapidapi.com"},
            timeout=self.timeout,
        )
        resp.raise_for_status()
        return bool(resp.json().get("valid"))

    def convert(self, amount: Decimal, src: str, dst: str) -> Decimal:
        resp = self.session.get(
            urljoin(FX_BASE, "convert"),
            params={"from": src, "to": dst, "amount": str(amount)},
            headers={"X-RapidAPI-Host": "currency-converter-pro.p.rapidapi.com"},
            timeout=self.timeout,
        )
        resp.raise_for_status()
        return Decimal(str(resp.json()["result"]))

    def email_ok(self, email: str) -> bool:
        try:
            resp = self.session.get(
                f"https://{EMAIL_HOST}/verify",
                params={"email": email},
                headers={"X-RapidAPI-Host": EMAIL_HOST},
                timeout=self.timeout,
            )
        except requests.RequestException:
            log.exception("email verification unavailable, accepting %s", email)
            return True
        return resp.ok and resp.json().get("status") == "valid"


def onboarding_quote(iban, amount, currency, key=None):
    """Validate the payout IBAN, then quote the EUR amount the customer receives."""
    headers = {"x-rapidapi-key": key or os.environ["PAYKIT_RAPIDAPI_KEY"]}
    check = requests.post(
        IBAN_URL,
        data={"iban": iban},
        headers={**headers, "x-rapidapi-host": "iban-validator.p.rapidapi.com"},
    )
    if check.status_code != 200 or not check.json().get("valid"):
        raise ValueError(f"invalid IBAN {iban}")
    fx = requests.get(
        "https://currency-converter-pro.p.rapidapi.com/convert",
        params={"from": currency, "to": "EUR", "amount": amount},
        headers={**headers, "x-rapidapi-host": "currency-converter-pro.p.rapidapi.com"},
    )
    fx.raise_for_status()
    return fx.json()["result"]
