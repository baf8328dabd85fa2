-- line_dates: when each line of a mined file was written — the author dates `git
-- blame` gives at the file's commit, or those its history on the code host shows —
-- as package blame's JSON (runs of lines with one date, and why any line has none).
-- '' is a file mined before lines were dated: its functions' dates are unknown.

ALTER TABLE files ADD COLUMN line_dates TEXT NOT NULL DEFAULT '';
