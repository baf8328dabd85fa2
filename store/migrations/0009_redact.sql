-- redact: intents and masked code. An intent of a built sample belongs to its kept
-- function (samples are renumbered and rebuilt from kept functions, which stay); an
-- imported sample's intents stay on the sample. Every attempt keeps its prompt, the
-- model's response, the LeakCheck report and the decision taken on it.

CREATE TABLE intents_v2 (
    id          INTEGER PRIMARY KEY,
    function_id INTEGER REFERENCES functions(id) ON DELETE CASCADE, -- built samples
    sample_id   INTEGER REFERENCES samples(id) ON DELETE CASCADE,   -- imported samples
    attempt     INTEGER NOT NULL,
    role        TEXT    NOT NULL DEFAULT 'comment', -- comment (the sample's comments) | paired (--also-original)
    kind        TEXT    NOT NULL,                   -- original | intent_humanlike | intent_redacted
    path        TEXT    NOT NULL DEFAULT '',        -- original | llm | llm_retry | offline | fallback
    model       TEXT    NOT NULL DEFAULT '',
    prompt      TEXT    NOT NULL DEFAULT '',        -- JSON chat messages sent, '' for no request
    response    TEXT    NOT NULL DEFAULT '',        -- the model's raw answer
    text        TEXT    NOT NULL,                   -- the intent as checked
    leak        TEXT    NOT NULL DEFAULT '{}',      -- JSON LeakCheck report
    passed      INTEGER NOT NULL DEFAULT 0,
    decision    TEXT    NOT NULL DEFAULT '',        -- accepted | retry | fallback | dropped | error
    reason      TEXT    NOT NULL DEFAULT '',
    input_hash  TEXT    NOT NULL DEFAULT '',        -- of what the attempts were made from
    created_at  TEXT    NOT NULL,
    CHECK ((function_id IS NULL) <> (sample_id IS NULL))
);

INSERT INTO intents_v2(id, function_id, sample_id, attempt, kind, model, text, leak, passed, decision, created_at)
    SELECT i.id, s.function_id, CASE WHEN s.function_id IS NULL THEN i.sample_id END, i.attempt, i.kind, i.model,
           i.text, i.leak, i.passed, CASE WHEN i.passed THEN 'accepted' ELSE '' END, i.created_at
    FROM intents i JOIN samples s ON s.id = i.sample_id;
DROP TABLE intents;
ALTER TABLE intents_v2 RENAME TO intents;
CREATE UNIQUE INDEX intents_function ON intents(function_id, attempt) WHERE function_id IS NOT NULL;
CREATE UNIQUE INDEX intents_sample ON intents(sample_id, attempt) WHERE sample_id IS NOT NULL;

-- masked: ỹ, a kept function's code with its ground truth replaced by typed
-- placeholders, which the intent generators read instead of the code.
CREATE TABLE masked (
    function_id  INTEGER PRIMARY KEY REFERENCES functions(id) ON DELETE CASCADE,
    code         TEXT    NOT NULL,
    placeholders TEXT    NOT NULL DEFAULT '[]', -- JSON: token, kind, original (a header's name, never its value), count
    input_hash   TEXT    NOT NULL,
    masked_at    TEXT    NOT NULL
);
