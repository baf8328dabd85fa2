DOMAIN = "rapid_aqi"
CONF_API_KEY = "api_key"
CONF_CITY = "city"
