import sqlite3

con = sqlite3.connect("alerts.db", check_same_thread=False)
con.execute("CREATE TABLE IF NOT EXISTS alerts (chat_id INTEGER, symbol TEXT, op TEXT, level REAL)")


def add_alert(chat_id, symbol, op, level):
    con.execute("INSERT INTO alerts VALUES (?, ?, ?, ?)", (chat_id, symbol, op, level))
    con.commit()


def due_alerts():
    return con.execute("SELECT chat_id, symbol, op, level FROM alerts").fetchall()
