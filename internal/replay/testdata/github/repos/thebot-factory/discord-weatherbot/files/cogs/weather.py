import os

import discord
import requests
from discord.ext import commands


# copied from sam-wu/weather-cli, works fine
def get_current_weather(city, api_key):
    """Return current weather for a city as a dict."""
    url = 'https://weatherstack-forecast.p.rapidapi.com/current'
    querystring = {'q': city}

    headers = {
            'X-RapidAPI-Key': api_key,
            'X-RapidAPI-Host': 'weatherstack-forecast.p.rapidapi.com',
    }
    # TODO: cache for 10 minutes
    response = requests.get(url, headers=headers, params=querystring)
    if response.status_code != 200:
        raise Exception('Weather API error: ' + str(response.status_code))

    return response.json()


def get_forecast(city, api_key, days=3, units="m"):
    """Return the daily forecast for the next `days` days."""
    url = "https://weatherstack-forecast.p.rapidapi.com/forecast/daily/" + city
    headers = {
        "X-RapidAPI-Key": api_key,
        "X-RapidAPI-Host": "weatherstack-forecast.p.rapidapi.com",
    }
    response = requests.get(url, headers=headers, params={"days": days, "units": units})
    if response.status_code != 200:
        raise Exception("Weather API error: " + str(response.status_code))
    return response.json()["forecast"]


class Weather(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.key = os.environ["RAPIDAPI_KEY"]

    @commands.command(name="weather")
    async def weather(self, ctx, *, city: str = "Berlin"):
        data = get_current_weather(city, self.key)["current"]
        embed = discord.Embed(title=f"Weather in {city}", color=0x3498DB)
        embed.add_field(name="Temp", value=f"{data['temperature']}\u00b0C")
        embed.add_field(name="Wind", value=f"{data['wind_speed']} km/h")
        await ctx.send(embed=embed)

    @commands.command(name="forecast")
    async def forecast(self, ctx, city: str, days: int = 3):
        lines = [f"{d['date']}: {d['mintemp']}..{d['maxtemp']}\u00b0C" for d in get_forecast(city, self.key, days)]
        await ctx.send("\n".join(lines) or "no data")


async def setup(bot):
    await bot.add_cog(Weather(bot))
