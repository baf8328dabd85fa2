import os
import requests


def get_random_joke():
    url = "https://dad-jokes-daily.p.rapidapi.com/random/joke"
    headers = {
        'x-rapidapi-key': os.environ.get('RAPIDAPI_KEY'),
        'x-rapidapi-host': 'dad-jokes-daily.p.rapidapi.com'
    }
    response = requests.request("GET", url, headers=headers)
    joke = response.json()['body'][0]
    return joke['setup'], joke['punchline']


def search_jokes(term):
    url = "https://dad-jokes-daily.p.rapidapi.com/joke/search"
    headers = {
        'x-rapidapi-key': os.environ.get('RAPIDAPI_KEY'),
        'x-rapidapi-host': 'dad-jokes-daily.p.rapidapi.com'
    }
    response = requests.request("GET", url, headers=headers, params={"term": term})
    return [j['setup'] + ' ' + j['punchline'] for j in response.json()['body']]


if __name__ == '__main__':
    s, p = get_random_joke()
    print(s)
    input('...')
    print(p)
