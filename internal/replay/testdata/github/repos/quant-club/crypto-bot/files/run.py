import time

from cryptobot.alerts import notify
from cryptobot.market import MarketData
from cryptobot.strategy import SmaCross

md = MarketData()
strat = SmaCross()

while True:
    signal = strat.on_price(md.price("btc"))
    if signal:
        notify(f"{signal} BTC @ {md.price('btc')}")
    time.sleep(60)
