-- realcall: the bounded real-call validation (sccg realcall). Every call sent is
-- kept by its key, so a rerun skips it: its status, attempts, latency and the
-- sha256 of its body (never the body, never a credential). Each run's whole
-- report (plan, exclusions with reasons, outcomes, rates) is kept beside it.

CREATE TABLE realcall_calls (
    call_key    TEXT    PRIMARY KEY,           -- sha256 of destination, method, URL and headers (credentials left out)
    api         TEXT    NOT NULL,
    host        TEXT    NOT NULL,
    method      TEXT    NOT NULL,
    url         TEXT    NOT NULL,              -- as rebuilt, before --resolve
    status      INTEGER NOT NULL DEFAULT 0,    -- the last answer's HTTP status; 0 when none came
    attempts    INTEGER NOT NULL DEFAULT 0,    -- requests sent, retries included
    latency_ms  REAL    NOT NULL DEFAULT 0,    -- of the last attempt
    body_sha256 TEXT    NOT NULL DEFAULT '',
    body_bytes  INTEGER NOT NULL DEFAULT 0,
    error       TEXT    NOT NULL DEFAULT '',
    run_id      INTEGER REFERENCES runs(id),
    sent_at     TEXT    NOT NULL
) WITHOUT ROWID;

CREATE TABLE realcall_reports (
    run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    live    INTEGER NOT NULL,                  -- 0: a dry run (nothing sent)
    report  TEXT    NOT NULL                   -- JSON
);
