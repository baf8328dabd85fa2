-- align and decontam: function ↔ endpoint alignments and de-duplication.

CREATE TABLE alignments (
    id               INTEGER PRIMARY KEY,
    function_id      INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
    call_index       INTEGER NOT NULL,           -- which request call site, source order
    api_id           INTEGER REFERENCES apis(id),
    endpoint_id      INTEGER REFERENCES endpoints(id),
    host             TEXT    NOT NULL,
    route            TEXT    NOT NULL DEFAULT '',
    method           TEXT    NOT NULL DEFAULT '',
    doc_match_type   TEXT    NOT NULL,           -- url | route | host_only
    endpoint_source  TEXT    NOT NULL,           -- documented | observed | none
    params           TEXT    NOT NULL DEFAULT '[]', -- JSON ground-truth parameter set
    params_source    TEXT    NOT NULL DEFAULT '',   -- documented | observed | none
    evidence         TEXT    NOT NULL DEFAULT '{}', -- JSON: literal, line, rule
    alternatives     TEXT    NOT NULL DEFAULT '[]', -- JSON: other candidate endpoints
    is_primary       INTEGER NOT NULL DEFAULT 0,
    UNIQUE (function_id, call_index)
);

-- dedup: cluster membership of each function after exact and near-duplicate grouping.
CREATE TABLE dedup (
    function_id     INTEGER PRIMARY KEY REFERENCES functions(id) ON DELETE CASCADE,
    cluster         INTEGER NOT NULL,            -- id of the representative function
    kind            TEXT    NOT NULL,            -- representative | exact | near
    similarity      REAL    NOT NULL DEFAULT 1
);

-- kept: functions decontam keeps, with their credential-redacted code. The sample
-- builder (split/export) reads these through KeptFunctions; a function is here if
-- and only if decontam's last run kept it.
CREATE TABLE kept (
    function_id  INTEGER PRIMARY KEY REFERENCES functions(id) ON DELETE CASCADE,
    alignment_id INTEGER NOT NULL REFERENCES alignments(id) ON DELETE CASCADE, -- primary alignment
    code         TEXT    NOT NULL,             -- redacted self-contained code
    source       TEXT    NOT NULL,             -- redacted function as written
    redactions   TEXT    NOT NULL DEFAULT '[]', -- JSON: kind, rule, line per replaced literal (never the value)
    facts        TEXT    NOT NULL DEFAULT '{}', -- the extractor's facts with the same credentials redacted
    input_hash   TEXT    NOT NULL,             -- hash of the unredacted code and source it was made from
    kept_at      TEXT    NOT NULL
);

-- RecordDecision looks a decision up by all of (stage, subject, verdict, reason) before
-- inserting it; without this index SQLite answers from decisions_stage and scans every
-- decision of the stage, which makes a 10,000-function align or decontam quadratic.
CREATE INDEX decisions_lookup ON decisions(subject_kind, subject, stage, verdict, reason);
