"""misc helpers"""
import hashlib
import http.client
import json
import os
import re


def slugify(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def sha256_file(path, chunk=1 << 16):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


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


def chunks(seq, n):
    for i in range(0, len(seq), n):
        yield seq[i:i + n]
