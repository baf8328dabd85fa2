import requests


def get_quote():
    r = requests.get("https://api.quotegarden.dev/api/v3/quotes/random")
    return r.json()["data"][0]["quoteText"]


def main():
    try:
        quote = get_quote()
    except Exception as e:
        quote = "no quote today (%s)" % e
    print("bot 3 says:", quote)


if __name__ == "__main__":
    main()
