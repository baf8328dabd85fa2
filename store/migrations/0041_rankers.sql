-- rankers: the learned endpoint rankers (sccg retrieve --retriever learned --train
-- FILE). A model is kept by the key of what it was trained on (the training
-- samples' intents and labels, the documents, the options and the ranker
-- version), so training again on the same inputs finds it instead of adding one;
-- the run that trained it is named.

CREATE TABLE rankers (
    id         INTEGER PRIMARY KEY,
    train_key  TEXT    NOT NULL UNIQUE,        -- sha256 of the training inputs
    name       TEXT    NOT NULL,               -- what it was trained on, for people
    model      TEXT    NOT NULL,               -- JSON: features, weights, term weights, training summary
    run_id     INTEGER REFERENCES runs(id),
    created_at TEXT    NOT NULL
);
