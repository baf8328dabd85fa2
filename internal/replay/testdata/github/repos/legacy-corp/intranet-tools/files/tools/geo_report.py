import csv
import os
import sys

import requests


class GeoClient:
    host = 'address-geocoder.p.rapidapi.com'

    def __init__(self):
        self.headers = {'X-RapidAPI-Key': os.environ['RAPIDAPI_KEY'], 'X-RapidAPI-Host': self.host}

    def geocode(self, address):
        try:
            r = requests.get('https://address-geocoder.p.rapidapi.com/geocode',
                             params={'address': address}, headers=self.headers)
            r.raise_for_status()
        except requests.RequestException, e:
            print >>sys.stderr, 'geocode failed:', e
            return None, None
        hit = r.json()['results'][0]
        return hit['lat'], hit['lng']


def report(in_csv):
    gc = GeoClient()
    w = csv.writer(sys.stdout)
    for row in csv.reader(open(in_csv)):
        lat, lng = gc.geocode(row[1])
        w.writerow(row + [lat, lng])
    print >>sys.stderr, 'done'


if __name__ == '__main__':
    report(sys.argv[1])
