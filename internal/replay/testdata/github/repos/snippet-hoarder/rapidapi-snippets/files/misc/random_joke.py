import http.client

conn = http.client.HTTPSConnection("dad-jokes-daily.p.rapidapi.com")

headers = {
    'x-rapidapi-key': "SIGN-UP-FOR-KEY",
    'x-rapidapi-host': "dad-jokes-daily.p.rapidapi.com"
}

conn.request("GET", "/random/joke", headers=headers)

res = conn.getresponse()
data = res.read()

print(data.decode("utf-8"))
