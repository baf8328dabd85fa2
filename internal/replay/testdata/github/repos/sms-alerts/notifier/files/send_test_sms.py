import requests

url = "https://sms-sender.p.rapidapi.com/send"

payload = {
    "to": "+15555550123",
    "message": "test from notifier",
}
headers = {
    "content-type": "application/x-www-form-urlencoded",
    "X-RapidAPI-Key": "f506b40928mshb5b7a767c76fb0p108f86bjsnebb2737f6a6f",
    "X-RapidAPI-Host": "sms-sender.p.rapidapi.com",
}

response = requests.post(url, data=payload, headers=headers)

print(response.json())
