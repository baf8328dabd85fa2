CREATE TABLE IF NOT EXISTS readings (ts TEXT, source TEXT, temp REAL, rhum REAL, pres REAL);
