"""Spell check a sentence with nothing but the standard library."""
import json
import os
import urllib.parse
import urllib.request


def spellcheck(text, lang="en"):
    qs = urllib.parse.urlencode({"text": text, "lang": lang})
    req = urllib.request.Request(
        "https://spell-check-plus.p.rapidapi.com/check?" + qs,
        headers={
            "X-RapidAPI-Key": os.environ["RAPIDAPI_KEY"],
            "X-RapidAPI-Host": "spell-check-plus.p.rapidapi.com",
        },
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


if __name__ == "__main__":
    import sys
    print(spellcheck(" ".join(sys.argv[1:]) or "Ths is a tset"))
