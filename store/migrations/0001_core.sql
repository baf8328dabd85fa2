-- Core bookkeeping every stage shares: runs, raw fetched content, decisions and
-- units of work that are done (the resumability primitive).

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    stage       TEXT    NOT NULL,
    args        TEXT    NOT NULL DEFAULT '{}',   -- JSON, secrets removed
    started_at  TEXT    NOT NULL,
    ended_at    TEXT,
    status      TEXT    NOT NULL DEFAULT 'running', -- running | ok | failed | cancelled
    counts      TEXT    NOT NULL DEFAULT '{}',   -- JSON object of named counters
    error       TEXT    NOT NULL DEFAULT ''
);

-- blobs hold every fetched page, API response and source file, content-addressed.
CREATE TABLE blobs (
    sha256      TEXT    PRIMARY KEY,
    size        INTEGER NOT NULL,
    compression TEXT    NOT NULL,                -- none | gzip
    data        BLOB    NOT NULL
);

-- fetches say where and when a blob came from; one blob may be fetched from many URLs.
CREATE TABLE fetches (
    id          INTEGER PRIMARY KEY,
    url         TEXT    NOT NULL,
    sha256      TEXT    REFERENCES blobs(sha256),  -- NULL when no body was kept
    status      INTEGER NOT NULL,
    headers     TEXT    NOT NULL DEFAULT '{}',   -- JSON: ETag, Last-Modified, Content-Type, …
    fetched_at  TEXT    NOT NULL,
    run_id      INTEGER REFERENCES runs(id)
);
CREATE INDEX fetches_url ON fetches(url, id);

-- decisions record every verdict a stage makes about a subject, with its reason.
CREATE TABLE decisions (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER REFERENCES runs(id),
    stage        TEXT    NOT NULL,
    subject_kind TEXT    NOT NULL,               -- api | page | file | function | sample | …
    subject      TEXT    NOT NULL,               -- an id, URL or path that names it
    verdict      TEXT    NOT NULL,               -- kept | rejected | changed | failed
    reason       TEXT    NOT NULL,
    evidence     TEXT    NOT NULL DEFAULT '{}',  -- JSON
    created_at   TEXT    NOT NULL
);
CREATE INDEX decisions_subject ON decisions(subject_kind, subject);
CREATE INDEX decisions_stage ON decisions(stage, verdict);

-- work_units marks a unit of a stage done, in the same transaction as its output.
CREATE TABLE work_units (
    stage    TEXT    NOT NULL,
    unit     TEXT    NOT NULL,
    run_id   INTEGER REFERENCES runs(id),
    done_at  TEXT    NOT NULL,
    PRIMARY KEY (stage, unit)
);
