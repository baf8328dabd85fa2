from collections import deque
from statistics import mean


class SmaCross:
    def __init__(self, fast=5, slow=20):
        self.fast, self.slow = deque(maxlen=fast), deque(maxlen=slow)
        self.position = 0

    def on_price(self, price):
        self.fast.append(price)
        self.slow.append(price)
        if len(self.slow) < self.slow.maxlen:
            return None
        if mean(self.fast) > mean(self.slow) and self.position == 0:
            self.position = 1
            return "BUY"
        if mean(self.fast) < mean(self.slow) and self.position == 1:
            self.position = 0
            return "SELL"
        return None
