import requests

def good():
    return requests.get("https://good.example.com/a").json()

def bad(:
    return requests.get("https://bad.example.com/b")

def py2():
    r = requests.get("https://old.example.com/c")
    print r.text
