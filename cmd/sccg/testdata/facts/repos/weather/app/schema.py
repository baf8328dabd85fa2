FIELDS = ("temperature_2m", "precipitation")
