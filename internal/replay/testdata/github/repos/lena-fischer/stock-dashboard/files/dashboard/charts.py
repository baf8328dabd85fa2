import altair as alt
import pandas as pd


def sparkline(history: pd.DataFrame, field="close"):
    return (
        alt.Chart(history)
        .mark_line()
        .encode(x="date:T", y=alt.Y(f"{field}:Q", scale=alt.Scale(zero=False)))
        .properties(height=60)
    )


def pct_change(series: pd.Series) -> pd.Series:
    return series.pct_change().fillna(0.0) * 100
