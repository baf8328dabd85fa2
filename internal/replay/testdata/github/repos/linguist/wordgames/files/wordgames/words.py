import os
import random

import requests

DICT_HOST = "dictionary-lookup.p.rapidapi.com"
SPELL_HOST = "spell-check-plus.p.rapidapi.com"


def headers_for(host):
    return {"X-RapidAPI-Key": os.environ["WORDS_KEY"], "X-RapidAPI-Host": host}


def define(word):
    r = requests.get("https://%s/words/%s/definitions" % (DICT_HOST, word), headers=headers_for(DICT_HOST))
    if r.status_code != 200:
        return []
    return [d["definition"] for d in r.json().get("definitions", [])]


def synonym_chain(start, length=5):
    """Follow random synonyms from `start`: happy -> glad -> pleased -> ..."""

    def synonyms(word):
        r = requests.get("https://dictionary-lookup.p.rapidapi.com/words/" + word + "/synonyms",
                         headers=headers_for(DICT_HOST))
        return r.json().get("synonyms", []) if r.ok else []

    chain = [start]
    for _ in range(length):
        options = [w for w in synonyms(chain[-1]) if w not in chain]
        if not options:
            break
        chain.append(random.choice(options))
    return chain


def misspelled(text):
    r = requests.get("https://spell-check-plus.p.rapidapi.com/check",
                     headers=headers_for(SPELL_HOST), params={"text": text, "lang": "en"})
    r.raise_for_status()
    return [m["word"] for m in r.json().get("misspellings", [])]
