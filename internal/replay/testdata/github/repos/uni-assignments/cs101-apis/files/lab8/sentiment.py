# Lab 8: sentiment of movie reviews
# Place holder comments below were given by the TA
import csv
import os

import requests

API_URL = "https://sentiment-analyzer.p.rapidapi.com/sentiment"


def score_review(text):
    # YOUR CODE HERE
    headers = {
        "x-rapidapi-key": os.environ["RAPIDAPI_KEY"],
        "x-rapidapi-host": "sentiment-analyzer.p.rapidapi.com",
    }
    r = requests.post(API_URL, json={"text": text, "lang": "en"}, headers=headers)
    return r.json()["score"]
    # END YOUR CODE


def average_sentiment(path):
    # YOUR CODE HERE
    with open(path, newline="") as fh:
        scores = [score_review(row["review"]) for row in csv.DictReader(fh)]
    return sum(scores) / len(scores)
    # END YOUR CODE


if __name__ == "__main__":
    print(average_sentiment("reviews.csv"))
