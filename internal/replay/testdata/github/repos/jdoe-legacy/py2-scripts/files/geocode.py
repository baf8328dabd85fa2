import requests
import os

HOST = 'address-geocoder.p.rapidapi.com'
HEADERS = {
    'x-rapidapi-key': os.environ['RAPIDAPI_KEY'],
    'x-rapidapi-host': HOST,
}

def geocode(address):
    r = requests.get('https://address-geocoder.p.rapidapi.com/geocode', headers=HEADERS, params={'address': address})
    if r.status_code != 200:
        print "geocode failed", r.status_code
        return None
    res = r.json()['results'][0]
    return res['lat'], res['lng']

def reverse(lat, lng):
    url = 'https://%s/reverse?lat=%s&lng=%s' % (HOST, lat, lng)
    r = requests.get(url, headers=HEADERS)
    return r.json().get('formatted_address')

if __name__ == '__main__':
    lat, lng = geocode('10 Downing Street, London')
    print lat, lng
    print reverse(lat, lng)
