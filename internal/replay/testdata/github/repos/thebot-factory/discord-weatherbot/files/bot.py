import asyncio
import os

import discord
from discord.ext import commands

intents = discord.Intents.default()
intents.message_content = True
bot = commands.Bot(command_prefix="!", intents=intents)


@bot.event
async def on_ready():
    print(f"logged in as {bot.user} ({bot.user.id})")


async def main():
    async with bot:
        for ext in ("cogs.weather", "cogs.jokes", "cogs.reminders"):
            await bot.load_extension(ext)
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
