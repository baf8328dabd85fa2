-- corpus: where each file mined from a bulk corpus (Parquet / JSONL export of public
-- repositories) came from. A file found in several rows or shards has a row for each.

CREATE TABLE corpus_sources (
    file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    shard       TEXT    NOT NULL,             -- the corpus shard, relative to the corpus root
    row         INTEGER NOT NULL,             -- 0-based row in the shard
    blob_id     TEXT    NOT NULL DEFAULT '',  -- the content's id as the corpus gives it
    license     TEXT    NOT NULL DEFAULT '',  -- as the corpus gives it
    match_layer TEXT    NOT NULL DEFAULT '',  -- the strongest evidence the early filter found
    output      TEXT    NOT NULL DEFAULT '',  -- the pipeline output shard it was loaded from
    PRIMARY KEY (file_id, shard, row)
);
