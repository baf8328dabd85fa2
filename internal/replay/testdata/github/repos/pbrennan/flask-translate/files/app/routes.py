"""HTTP routes. Everything proxies to RapidAPI so the key never reaches the browser."""
import json
import os

import requests
from flask import Blueprint, abort, jsonify, request

bp = Blueprint("nlp", __name__)

TRANSLATE_URL = "https://text-translator-ai.p.rapidapi.com"
SENTIMENT_HOST = "sentiment-analyzer.p.rapidapi.com"
RAPID_KEY = os.getenv("RAPID_KEY")


@bp.route("/api/translate", methods=["POST"])
def translate():
    body = request.get_json(force=True)
    if not body or "text" not in body:
        abort(400)
    resp = requests.post(
        TRANSLATE_URL + "/translate",
        json={"text": body["text"], "source": body.get("source", "auto"), "target": body.get("target", "en")},
        headers={
            "content-type": "application/json",
            "X-RapidAPI-Key": RAPID_KEY,
            "X-RapidAPI-Host": "text-translator-ai.p.rapidapi.com",
        },
    )
    if not resp.ok:
        return jsonify({"error": resp.text}), resp.status_code
    return jsonify(resp.json())


@bp.route("/api/languages")
def languages():
    resp = requests.get(
        f"{TRANSLATE_URL}/languages",
        headers={"X-RapidAPI-Key": RAPID_KEY, "X-RapidAPI-Host": "text-translator-ai.p.rapidapi.com"},
    )
    return jsonify(resp.json())


@bp.route("/api/detect", methods=["POST"])
def detect_language():
    # not in their docs but the playground used it in 2023, still works
    text = request.get_json(force=True).get("text", "")
    resp = requests.post(
        TRANSLATE_URL + "/detect",
        data=json.dumps({"text": text}),
        headers={
            "content-type": "application/json",
            "X-RapidAPI-Key": RAPID_KEY,
            "X-RapidAPI-Host": "text-translator-ai.p.rapidapi.com",
        },
    )
    return jsonify(resp.json())


@bp.route("/api/sentiment", methods=["POST"])
def sentiment():
    text = request.get_json(force=True)["text"]
    try:
        r = requests.post(
            f"https://{SENTIMENT_HOST}/sentiment",
            data=json.dumps({"text": text, "lang": "en"}),
            headers={
                "Content-Type": "application/json",
                "x-rapidapi-key": RAPID_KEY,
                "x-rapidapi-host": SENTIMENT_HOST,
            },
            timeout=5,
        )
        r.raise_for_status()
    except requests.exceptions.RequestException as e:
        return jsonify({"error": str(e)}), 502
    return jsonify(r.json())


@bp.route("/api/entities", methods=["POST"])
def entities():
    text = request.get_json(force=True)["text"]
    r = requests.post(
        "https://sentiment-analyzer.p.rapidapi.com/entities",
        json={"text": text},
        headers={"x-rapidapi-key": RAPID_KEY, "x-rapidapi-host": SENTIMENT_HOST},
    )
    return jsonify(r.json().get("entities", []))
