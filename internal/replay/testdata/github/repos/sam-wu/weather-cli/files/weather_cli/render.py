ICONS = {"Sunny": "\u2600", "Clear": "\u263e", "Rain": "\u2614", "Cloudy": "\u2601"}


def _icon(desc):
    for word, icon in ICONS.items():
        if word.lower() in desc.lower():
            return icon
    return " "


def render_current(city, data):
    cur = data["current"]
    desc = ", ".join(cur.get("weather_descriptions", []))
    return f"{_icon(desc)} {city}: {cur['temperature']}\u00b0C {desc} (feels like {cur['feelslike']}\u00b0C)"


def render_forecast(city, days):
    out = [f"{city}"]
    for d in days:
        out.append(f"  {d['date']}  {d['mintemp']:>3}\u00b0 .. {d['maxtemp']:>3}\u00b0  {_icon(d.get('summary', ''))}")
    return "\n".join(out)
