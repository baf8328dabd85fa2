-- repo_paths: the Python files a repository holds, as mining saw its tree (mine
-- --local lists every one; GitHub search and corpora only the files they keep).
-- Extraction resolves imports against them, so a repository's own modules
-- (models.py, auth/, schema.py) are not counted as third-party dependencies.

CREATE TABLE repo_paths (
    repo_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
    path    TEXT    NOT NULL,
    PRIMARY KEY (repo_id, path)
) WITHOUT ROWID;
