import logging
import os

import requests
from discord.ext import commands

log = logging.getLogger(__name__)


def fetch_joke():
    url = "https://dad-jokes-daily.p.rapidapi.com/random/joke"
    headers = {
        'x-rapidapi-key': os.environ.get('RAPIDAPI_KEY'),
        'x-rapidapi-host': 'dad-jokes-daily.p.rapidapi.com'
    }
    try:
        response = requests.request("GET", url, headers=headers, timeout=5)
        joke = response.json()['body'][0]
    except (requests.RequestException, KeyError, IndexError) as exc:
        log.warning("joke api failed: %s", exc)
        return None, None
    return joke['setup'], joke['punchline']


class Jokes(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @commands.command()
    async def joke(self, ctx):
        setup_line, punchline = fetch_joke()
        if setup_line is None:
            await ctx.send("No jokes today \U0001F622")
            return
        await ctx.send(f"{setup_line}\n||{punchline}||")


async def setup(bot):
    await bot.add_cog(Jokes(bot))
