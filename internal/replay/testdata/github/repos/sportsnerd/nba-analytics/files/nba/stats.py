def true_shooting(pts, fga, fta):
    denom = 2 * (fga + 0.44 * fta)
    return pts / denom if denom else 0.0


def per_36(value, minutes):
    return value * 36 / minutes if minutes else 0.0
