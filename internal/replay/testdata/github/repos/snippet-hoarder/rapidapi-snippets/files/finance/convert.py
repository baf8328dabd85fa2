import http.client
import json
import os


def convert(amount, frm="USD", to="EUR"):
    conn = http.client.HTTPSConnection("currency-converter-pro.p.rapidapi.com")
    headers = {
        'x-rapidapi-key': os.environ.get("RAPIDAPI_KEY"),
        'x-rapidapi-host': "currency-converter-pro.p.rapidapi.com"
    }
    conn.request("GET", f"/convert?from={frm}&to={to}&amount={amount}", headers=headers)
    res = conn.getresponse()
    if res.status != 200:
        raise RuntimeError("convert failed: %s" % res.status)
    return json.loads(res.read().decode("utf-8"))["result"]


def list_symbols():
    conn = http.client.HTTPSConnection("currency-converter-pro.p.rapidapi.com")
    headers = {
        'x-rapidapi-key': os.environ.get("RAPIDAPI_KEY"),
        'x-rapidapi-host': "currency-converter-pro.p.rapidapi.com"
    }
    conn.request("GET", "/symbols", headers=headers)
    return json.loads(conn.getresponse().read())


if __name__ == "__main__":
    print(convert(100, "GBP", "JPY"))
