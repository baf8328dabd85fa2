-- samples, intents and splits: the benchmark itself.

CREATE TABLE samples (
    id               INTEGER PRIMARY KEY,
    sample_id        TEXT    NOT NULL UNIQUE,    -- SCG-000001
    function_id      INTEGER REFERENCES functions(id),   -- NULL for imported samples
    alignment_id     INTEGER REFERENCES alignments(id),
    origin           TEXT    NOT NULL,           -- built | imported
    api_name         TEXT    NOT NULL DEFAULT '',
    api_host         TEXT    NOT NULL DEFAULT '',
    function_name    TEXT    NOT NULL DEFAULT '',
    code             TEXT    NOT NULL DEFAULT '', -- released code (credentials redacted)
    comments_source  TEXT    NOT NULL DEFAULT '',
    doc_match_type   TEXT    NOT NULL DEFAULT '',
    record           TEXT    NOT NULL DEFAULT '{}', -- JSON record in the published format
    created_at       TEXT    NOT NULL,
    -- the stable key a sample is numbered by: repository, path, qualname, start line
    sort_key         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX samples_function ON samples(function_id);

CREATE TABLE intents (
    id          INTEGER PRIMARY KEY,
    sample_id   INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    kind        TEXT    NOT NULL,                -- original | intent_humanlike | intent_redacted
    model       TEXT    NOT NULL DEFAULT '',
    text        TEXT    NOT NULL,
    leak        TEXT    NOT NULL DEFAULT '{}',   -- JSON LeakCheck result
    passed      INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL,
    UNIQUE (sample_id, attempt)
);

CREATE TABLE splits (
    sample_id   INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
    split       TEXT    NOT NULL,                -- train | validation | test
    family      TEXT    NOT NULL DEFAULT '',     -- API family that kept it together
    seed        INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX splits_split ON splits(split);
