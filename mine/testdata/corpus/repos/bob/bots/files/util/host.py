JOKES_HOST = "jokes-hub.p.rapidapi.com"
