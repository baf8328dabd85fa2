import http.client

conn = http.client.HTTPSConnection("jokes-hub.p.rapidapi.com")


def random_joke(key):
    headers = {"x-rapidapi-host": "jokes-hub.p.rapidapi.com", "x-rapidapi-key": key}
    conn.request("GET", "/random/joke", headers=headers)
    return conn.getresponse().read().decode()
