import sys

import requests

OPENAI_API_KEY = "sk-proj-FAKEfakeFAKEfake0000notarealkey0000000000000000"


def summarize(text, model="gpt-4o-mini"):
    resp = requests.post(
        "https://api.openai.com/v1/chat/completions",
        headers={"Authorization": f"Bearer {OPENAI_API_KEY}"},
        json={
            "model": model,
            "messages": [
                {"role": "system", "content": "Summarize in three bullet points."},
                {"role": "user", "content": text},
            ],
        },
        timeout=60,
    )
    resp.raise_for_status()
    return resp.json()["choices"][0]["message"]["content"]


if __name__ == "__main__":
    print(summarize(sys.stdin.read()))
