import asyncio
import re

from discord.ext import commands

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_delay(text):
    m = re.fullmatch(r"(\d+)([smhd])", text.strip())
    if not m:
        raise commands.BadArgument("use e.g. 10m, 2h, 1d")
    return int(m.group(1)) * UNITS[m.group(2)]


class Reminders(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @commands.command()
    async def remind(self, ctx, delay: str, *, what: str):
        seconds = parse_delay(delay)
        await ctx.send(f"ok, I'll remind you in {delay}")
        await asyncio.sleep(seconds)
        await ctx.send(f"{ctx.author.mention} reminder: {what}")


async def setup(bot):
    await bot.add_cog(Reminders(bot))
