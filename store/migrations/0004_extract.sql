-- extract: request functions found in the files, with their static facts.

CREATE TABLE functions (
    id                 INTEGER PRIMARY KEY,
    file_id            INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name               TEXT    NOT NULL,
    qualname           TEXT    NOT NULL,         -- Class.method, outer.inner, <module>
    class_name         TEXT    NOT NULL DEFAULT '',
    start_line         INTEGER NOT NULL,
    end_line           INTEGER NOT NULL,
    is_async           INTEGER NOT NULL DEFAULT 0,
    source             TEXT    NOT NULL,         -- the function as written
    code               TEXT    NOT NULL,         -- self-contained: imports, context, function
    code_hash          TEXT    NOT NULL,         -- normalized hash
    syntax_ok          INTEGER NOT NULL DEFAULT 1,
    status             TEXT    NOT NULL,         -- candidate | rejected
    reject_reason      TEXT    NOT NULL DEFAULT '',
    quality            REAL    NOT NULL DEFAULT 0,
    quality_components TEXT    NOT NULL DEFAULT '{}', -- JSON
    facts              TEXT    NOT NULL DEFAULT '{}', -- JSON: call sites, headers, imports, …
    UNIQUE (file_id, qualname, start_line)
);
CREATE INDEX functions_hash ON functions(code_hash);
