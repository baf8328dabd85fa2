from decimal import Decimal
from unittest import mock

from paykit.rapid import RapidChecks


def test_convert_parses_result():
    rc = RapidChecks(key="test")
    with mock.patch.object(rc.session, "get") as get:
        get.return_value.json.return_value = {"result": 91.5}
        assert rc.convert(Decimal("100"), "USD", "EUR") == Decimal("91.5")


def test_email_ok_fails_open(customer):
    rc = RapidChecks(key="test")
    with mock.patch.object(rc.session, "get", side_effect=__import__("requests").ConnectionError):
        assert rc.email_ok(customer["email"]) is True
