"""Python 3 port of geo_report.py (2020-12)."""
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
                             params={'address': address}, headers=self.headers, timeout=10)
            r.raise_for_status()
        except requests.RequestException as e:
            print('geocode failed:', e, file=sys.stderr)
            return None, None
        hit = r.json()['results'][0]
        return hit['lat'], hit['lng']

    def reverse(self, lat, lng):
        r = requests.get('https://address-geocoder.p.rapidapi.com/reverse',
                         params={'lat': lat, 'lng': lng}, headers=self.headers, timeout=10)
        return r.json().get('formatted_address') if r.ok else None


def report(in_csv):
    gc = GeoClient()
    w = csv.writer(sys.stdout)
    with open(in_csv, newline='') as fh:
        for row in csv.reader(fh):
            w.writerow(row + list(gc.geocode(row[1])))
    print('done', file=sys.stderr)


if __name__ == '__main__':
    report(sys.argv[1])
