import http.client

conn = http.client.HTTPSConnection("weatherstack-forecast.p.rapidapi.com")

headers = {
    'X-RapidAPI-Key': "3f9a1c7e2bmshdeadbeef00c0ffp1face00jsnfeedf00d1234",
    'X-RapidAPI-Host': "weatherstack-forecast.p.rapidapi.com"
    }

conn.request("GET", "/current?q=London&lang=en", headers=headers)

res = conn.getresponse()
data = res.read()

print(data.decode("utf-8"))
