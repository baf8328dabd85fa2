# -*- coding: utf-8 -*-
# Nightly: verify the e-mail addresses of new hires before the LDAP import.
# Owner: it-ops@example.com
import json
import urllib
import urllib2

API_KEY = '9b2e00f4a1msh0000decafbad00p1abcdefjsn0123456789ab'


def verify_email(address):
    url = 'https://email-verifier.p.rapidapi.com/verify?' + urllib.urlencode({'email': address})
    req = urllib2.Request(url)
    req.add_header('X-RapidAPI-Key', API_KEY)
    req.add_header('X-RapidAPI-Host', 'email-verifier.p.rapidapi.com')
    try:
        return json.load(urllib2.urlopen(req, timeout=15))
    except urllib2.HTTPError, e:
        print 'HTTP error %d for %s' % (e.code, address)
        return {}


def main(path):
    bad = []
    for line in open(path):
        addr = line.strip().split(';')[2]
        res = verify_email(addr)
        if res.get('status') != 'valid':
            bad.append(addr)
    print '%d invalid addresses' % len(bad)
    for b in bad:
        print '  ', b


if __name__ == '__main__':
    import sys
    main(sys.argv[1])
