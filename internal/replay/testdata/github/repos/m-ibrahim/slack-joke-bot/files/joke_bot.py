"""Post a dad joke to Slack. Run from cron: 0 9 * * 1-5"""
import os

import requests
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

SLACK_CHANNEL = os.environ.get("SLACK_CHANNEL", "#random")


def get_random_joke():
    url = "https://dad-jokes-daily.p.rapidapi.com/random/joke"
    headers = {
        'x-rapidapi-key': os.environ.get('RAPIDAPI_KEY'),
        'x-rapidapi-host': 'dad-jokes-daily.p.rapidapi.com'
    }
    response = requests.request("GET", url, headers=headers)
    joke = response.json()['body'][0]
    return joke['setup'], joke['punchline']


def post_joke():
    client = WebClient(token=os.environ["SLACK_BOT_TOKEN"])
    setup, punchline = get_random_joke()
    try:
        msg = client.chat_postMessage(channel=SLACK_CHANNEL, text=setup)
        client.chat_postMessage(channel=SLACK_CHANNEL, text=punchline, thread_ts=msg["ts"])
    except SlackApiError as e:
        print("slack error:", e.response["error"])


if __name__ == "__main__":
    post_joke()
