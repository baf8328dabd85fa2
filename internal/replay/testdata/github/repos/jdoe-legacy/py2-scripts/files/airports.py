import sys
import requests

KEY = '41bed440e5msh0454f31af31768p113e02ejsna68ef786e4d3'

def find_airports(q):
    resp = requests.get('https://flight-tracker-live.p.rapidapi.com/airports/search',
                        params={'q': q},
                        headers={'X-RapidAPI-Key': KEY,
                                 'X-RapidAPI-Host': 'flight-tracker-live.p.rapidapi.com'})
    if not resp.ok:
        print >>sys.stderr, "request failed:", resp.status_code
        return []
    return resp.json()

def main():
    for code, ap in dict((a['iata'], a) for a in find_airports(sys.argv[1])).iteritems():
        print "%-4s %s (%s)" % (code, ap['name'], ap['city'])

main()
