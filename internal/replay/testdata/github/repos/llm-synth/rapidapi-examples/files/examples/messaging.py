import os

import requests


def send_sms_message(to, message, sender=None):
    # Define the target RapidAPI endpoint URL
    url = "https://sms-sender.p.rapidapi.com/send"
    # Set up the form payload
    payload = {"to": to, "message": message}
    if sender:
        payload["sender"] = sender
    # Define the request headers including the API key and host
    headers = {
        "content-type": "application/x-www-form-urlencoded",
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "sms-sender.p.rapidapi.com",
    }
    # Send the POST request to the API
    response = requests.post(url, data=payload, headers=headers)
    # Return the JSON response
    return response.json()


def verify_email_address(email):
    # Define the target RapidAPI endpoint URL
    url = "https://email-verifier.p.rapidapi.com/verify"
    # Set up the query parameters
    querystring = {"email": email}
    # Define the request headers including the API key and host
    headers = {
        "X-RapidAPI-Key": os.getenv("RAPIDAPI_KEY"),
        "X-RapidAPI-Host": "email-verifier.p.rapidapi.com",
    }
    # Send the GET request to the API
    response = requests.get(url, headers=headers, params=querystring)
    # Return the JSON response
    return response.json()
