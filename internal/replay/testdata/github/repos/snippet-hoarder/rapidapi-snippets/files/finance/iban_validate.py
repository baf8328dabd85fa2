import http.client

conn = http.client.HTTPSConnection("iban-validator.p.rapidapi.com")

payload = "iban=DE89370400440532013000"

headers = {
    'content-type': "application/x-www-form-urlencoded",
    'X-RapidAPI-Key': "SIGN-UP-FOR-KEY",
    'X-RapidAPI-Host': "iban-validator.p.rapidapi.com"
    }

conn.request("POST", "/validate", payload, headers)

res = conn.getresponse()
data = res.read()

print(data.decode("utf-8"))
