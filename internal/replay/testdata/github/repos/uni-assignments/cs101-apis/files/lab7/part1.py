# Lab 7 part 1
# Name: Diego R.   Student ID: 20241187
# Goal: get the top headlines for our country and print the titles.

import requests

url = "https://news-headlines-api.p.rapidapi.com/v1/headlines"
querystring = {"country":"mx","category":"science"}
headers = {
	"x-rapidapi-key": "0fb23c6f5dmsha2cec255404e4fp1b44003jsn4d6608697a8d",
	"x-rapidapi-host": "news-headlines-api.p.rapidapi.com"
}

response = requests.get(url, headers=headers, params=querystring)

for article in response.json()["articles"]:
    print("-", article["title"])
