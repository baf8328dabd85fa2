class Forecast:
    def __init__(self, hourly):
        self.hourly = hourly
