# -*- coding: utf-8 -*-
import os

import telebot

from kur import tl_karsiligi

bot = telebot.TeleBot(os.environ["TELEGRAM_TOKEN"])


@bot.message_handler(commands=["kur"])
def kur(message):
    # kullanım: /kur 100 EUR
    parts = message.text.split()
    try:
        amount, doviz = float(parts[1]), parts[2].upper()
    except (IndexError, ValueError):
        bot.reply_to(message, "Kullanım: /kur 100 EUR")
        return
    bot.reply_to(message, f"{amount} {doviz} = {tl_karsiligi(amount, doviz)} TL")


if __name__ == "__main__":
    bot.infinity_polling()
