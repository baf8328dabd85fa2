import asyncio
import os

from aiogram import Bot, Dispatcher, F
from aiogram.filters import Command
from aiogram.types import Message

from alerts.quotes import last_price
from alerts.store import add_alert, due_alerts

bot = Bot(os.environ["BOT_TOKEN"])
dp = Dispatcher()


@dp.message(Command("alert"))
async def cmd_alert(message: Message):
    try:
        _, symbol, op, level = message.text.split()
        add_alert(message.chat.id, symbol.upper(), op, float(level))
    except ValueError:
        await message.answer("usage: /alert AAPL > 200")
        return
    await message.answer(f"ok, watching {symbol.upper()} {op} {level}")


@dp.message(F.text)
async def echo_price(message: Message):
    price = await asyncio.to_thread(last_price, message.text.strip())
    await message.answer(f"{message.text.strip().upper()}: {price}")


async def checker():
    while True:
        for chat_id, symbol, op, level in due_alerts():
            p = await asyncio.to_thread(last_price, symbol)
            if (op == ">" and p > level) or (op == "<" and p < level):
                await bot.send_message(chat_id, f"\U0001F514 {symbol} is {p} ({op} {level})")
        await asyncio.sleep(60)


async def main():
    asyncio.create_task(checker())
    await dp.start_polling(bot)


if __name__ == "__main__":
    asyncio.run(main())
