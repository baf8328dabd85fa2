import pandas as pd
import streamlit as st

from dashboard.api import get_movers, get_quote, save_watchlist

st.set_page_config(page_title="Stock dashboard", layout="wide")
st.title("\U0001F4C8 Stock dashboard")

symbols = st.sidebar.text_input("Symbols (comma separated)", "AAPL,MSFT,NVDA")
tickers = [s.strip() for s in symbols.split(",") if s.strip()]

cols = st.columns(max(len(tickers), 1))
for col, sym in zip(cols, tickers):
    q = get_quote(sym)
    col.metric(sym, q.get("price", "-"), q.get("change_percent", ""))

region = st.sidebar.selectbox("Region", ["US", "EU", "ASIA"])
gainers, losers = get_movers(region)
left, right = st.columns(2)
left.subheader("Top gainers")
left.dataframe(pd.DataFrame(gainers))
right.subheader("Top losers")
right.dataframe(pd.DataFrame(losers))

with st.sidebar.form("watchlist"):
    wl_name = st.text_input("Watchlist name", "my picks")
    if st.form_submit_button("Save watchlist"):
        ok = save_watchlist(wl_name, tickers)
        st.success("saved") if ok else st.error("could not save")
