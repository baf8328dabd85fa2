-- evaluate: generations and their scores.

CREATE TABLE generations (
    id            INTEGER PRIMARY KEY,
    sample_id     TEXT    NOT NULL,              -- published sample_id
    setting       TEXT    NOT NULL,
    model         TEXT    NOT NULL,
    sample_index  INTEGER NOT NULL,
    completion    TEXT    NOT NULL,
    UNIQUE (sample_id, setting, model, sample_index)
);

CREATE TABLE evaluations (
    id             INTEGER PRIMARY KEY,
    generation_id  INTEGER NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
    run_id         INTEGER REFERENCES runs(id),
    status         TEXT    NOT NULL,             -- ok | error | timeout | oom | crash | killed
    failure_stage  TEXT    NOT NULL DEFAULT '',
    metrics        TEXT    NOT NULL DEFAULT '{}', -- JSON
    requests       TEXT    NOT NULL DEFAULT '[]', -- JSON captured requests
    UNIQUE (generation_id, run_id)
);
