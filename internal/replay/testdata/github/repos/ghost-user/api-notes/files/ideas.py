# weekend project ideas
# 1. joke of the day widget -> dad-jokes-daily.p.rapidapi.com
# 2. "should I bike today" bot -> weatherstack-forecast.p.rapidapi.com /forecast/15minutely/{location}
# 3. portfolio tracker -> realtime-stock-quotes.p.rapidapi.com

IDEAS = {
    "joke widget": {"effort": 1, "fun": 3},
    "bike bot": {"effort": 2, "fun": 4},
    "portfolio": {"effort": 4, "fun": 2},
}


def best(ideas=IDEAS):
    return max(ideas, key=lambda k: ideas[k]["fun"] / ideas[k]["effort"])


if __name__ == "__main__":
    print(best())
