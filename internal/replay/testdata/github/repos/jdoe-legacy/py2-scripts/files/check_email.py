#!/usr/bin/env python
# checks a list of emails, one per line
import sys
import os
import requests

API_KEY = os.environ.get('RAPIDAPI_KEY')

def verify(email):
    url = "https://email-verifier.p.rapidapi.com/verify"
    headers = {'X-RapidAPI-Key': API_KEY, 'X-RapidAPI-Host': 'email-verifier.p.rapidapi.com'}
    try:
        r = requests.get(url, headers=headers, params={'email': email})
        return r.json()
    except Exception, e:
        print "error checking %s: %s" % (email, e)
        return None

if __name__ == '__main__':
    for line in open(sys.argv[1]):
        email = line.strip()
        if not email:
            continue
        res = verify(email)
        if res:
            print email, res.get('status'), res.get('score')
