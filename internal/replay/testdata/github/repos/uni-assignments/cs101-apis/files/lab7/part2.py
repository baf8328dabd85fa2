# Lab 7 part 2: translate the first headline to English
import requests

headline = input("Paste a headline: ")

url = "https://text-translator-ai.p.rapidapi.com/translate"
payload = {"text": headline, "source": "es", "target": "en"}
headers = {
	"content-type": "application/json",
	"x-rapidapi-key": "0fb23c6f5dmsha2cec255404e4fp1b44003jsn4d6608697a8d",
	"x-rapidapi-host": "text-translator-ai.p.rapidapi.com"
}

response = requests.post(url, json=payload, headers=headers)
if response.status_code == 200:
    print(response.json()["translatedText"])
else:
    print("Error:", response.status_code)
