# -*- coding: utf-8 -*-
# Döviz çevirme fonksiyonları (RapidAPI currency converter)
import http.client
import json
import os


# internetten bulduğum kod, çalışıyor
def convert(amount, frm="USD", to="EUR"):
    conn = http.client.HTTPSConnection("currency-converter-pro.p.rapidapi.com")
    headers = {
        'x-rapidapi-key': os.environ.get("RAPIDAPI_KEY"),
        'x-rapidapi-host': "currency-converter-pro.p.rapidapi.com"
    }
    # örnek: /convert?from=USD&to=TRY&amount=100
    conn.request("GET", f"/convert?from={frm}&to={to}&amount={amount}", headers=headers)
    res = conn.getresponse()

    if res.status != 200:
        raise RuntimeError("convert failed: %s" % res.status)
    return json.loads(res.read().decode("utf-8"))["result"]


def tl_karsiligi(amount, doviz="USD"):
    """Verilen döviz miktarının Türk lirası karşılığı."""
    return round(convert(amount, doviz, "TRY"), 2)
