def format_current(city, data):
    cur = data.get("current", {})
    return (
        f"{city}: {cur.get('temperature', '?')}\u00b0C, "
        f"{', '.join(cur.get('weather_descriptions', []))}\n"
        f"wind {cur.get('wind_speed', '?')} km/h, humidity {cur.get('humidity', '?')}%"
    )


def format_forecast(city, days):
    lines = [f"Forecast for {city}:"]
    for day in days:
        lines.append(f"{day['date']}: {day['mintemp']}..{day['maxtemp']}\u00b0C")
    return "\n".join(lines)
