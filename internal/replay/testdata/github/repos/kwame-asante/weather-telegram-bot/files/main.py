import os

from telegram.ext import ApplicationBuilder, CommandHandler

from bot.handlers import forecast, rain, weather


def main():
    app = ApplicationBuilder().token(os.environ["TELEGRAM_TOKEN"]).build()
    app.add_handler(CommandHandler("weather", weather))
    app.add_handler(CommandHandler("forecast", forecast))
    app.add_handler(CommandHandler("rain", rain))
    app.run_polling()


if __name__ == "__main__":
    main()
