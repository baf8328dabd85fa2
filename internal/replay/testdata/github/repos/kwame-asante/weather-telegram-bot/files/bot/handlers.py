from telegram import Update
from telegram.ext import ContextTypes

from bot import weather_client
from bot.formatting import format_current, format_forecast


async def weather(update: Update, context: ContextTypes.DEFAULT_TYPE):
    city = " ".join(context.args) or "Accra"
    data = weather_client.current_weather(city)
    await update.message.reply_text(format_current(city, data))


async def forecast(update: Update, context: ContextTypes.DEFAULT_TYPE):
    if not context.args:
        await update.message.reply_text("usage: /forecast <city> [days]")
        return
    city = context.args[0]
    days = int(context.args[1]) if len(context.args) > 1 else 3
    days_data = weather_client.daily_forecast(city, days=days)
    await update.message.reply_text(format_forecast(city, days_data))


async def rain(update: Update, context: ContextTypes.DEFAULT_TYPE):
    city = " ".join(context.args) or "Accra"
    steps = weather_client.nowcast(city)
    if not steps:
        await update.message.reply_text("No nowcast available right now.")
        return
    wet = [s for s in steps.get("steps", []) if s.get("precip_mm", 0) > 0.1]
    msg = "Rain expected soon \u2614" if wet else "Dry for the next two hours"
    await update.message.reply_text(msg)
