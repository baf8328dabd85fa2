-- mine: repositories and the source files found in them, with provenance.

CREATE TABLE repositories (
    id             INTEGER PRIMARY KEY,
    full_name      TEXT    NOT NULL UNIQUE,      -- owner/name
    source         TEXT    NOT NULL,             -- github | local
    url            TEXT    NOT NULL DEFAULT '',
    description    TEXT    NOT NULL DEFAULT '',
    language       TEXT    NOT NULL DEFAULT '',
    stars          INTEGER NOT NULL DEFAULT 0,
    forks          INTEGER NOT NULL DEFAULT 0,
    watchers       INTEGER NOT NULL DEFAULT 0,
    open_issues    INTEGER NOT NULL DEFAULT 0,
    license        TEXT    NOT NULL DEFAULT '',
    topics         TEXT    NOT NULL DEFAULT '[]', -- JSON array
    default_branch TEXT    NOT NULL DEFAULT '',
    is_fork        INTEGER NOT NULL DEFAULT 0,
    archived       INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT    NOT NULL DEFAULT '',
    updated_at     TEXT    NOT NULL DEFAULT '',
    pushed_at      TEXT    NOT NULL DEFAULT '',
    fetched_at     TEXT    NOT NULL
);

CREATE TABLE files (
    id           INTEGER PRIMARY KEY,
    repo_id      INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
    path         TEXT    NOT NULL,
    git_sha      TEXT    NOT NULL DEFAULT '',    -- blob SHA as git knows it
    commit_sha   TEXT    NOT NULL DEFAULT '',    -- commit or ref it was read at
    url          TEXT    NOT NULL DEFAULT '',    -- URL at that commit
    size         INTEGER NOT NULL DEFAULT 0,
    blob_sha256  TEXT    REFERENCES blobs(sha256), -- content
    query_layer  TEXT    NOT NULL DEFAULT '',    -- strongest layer that found it
    query        TEXT    NOT NULL DEFAULT '',
    api_id       INTEGER REFERENCES apis(id),
    found_at     TEXT    NOT NULL,
    UNIQUE (repo_id, path, git_sha)
);

-- file_hits: every (API, layer, query) that found a file.
CREATE TABLE file_hits (
    file_id      INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    api_id       INTEGER REFERENCES apis(id),
    query_layer  TEXT    NOT NULL,
    query        TEXT    NOT NULL,
    PRIMARY KEY (file_id, api_id, query_layer, query)
);
