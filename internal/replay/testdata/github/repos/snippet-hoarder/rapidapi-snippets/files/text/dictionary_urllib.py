import json
import os
from urllib.parse import quote
from urllib.request import Request, urlopen

HDRS = {
    "x-rapidapi-key": os.getenv("RAPIDAPI_KEY", ""),
    "x-rapidapi-host": "dictionary-lookup.p.rapidapi.com",
}


def definitions(word):
    url = "https://dictionary-lookup.p.rapidapi.com/words/%s/definitions" % quote(word)
    return json.loads(urlopen(Request(url, headers=HDRS)).read())


def synonyms(word):
    url = "https://dictionary-lookup.p.rapidapi.com/words/%s/synonyms" % quote(word)
    try:
        return json.loads(urlopen(Request(url, headers=HDRS)).read()).get("synonyms", [])
    except Exception:
        return []
