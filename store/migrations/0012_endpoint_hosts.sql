-- An endpoint is a route and method served from one host: a description whose
-- servers name several hosts (regions, a paid tier) documents the same route on
-- each of them, and alignment matches a call by host, route and method. The key of
-- endpoints gains the host. SQLite cannot change a table's UNIQUE constraint, so
-- the table is rebuilt with the same ids; params (which the drop cascades to) are
-- put back, and alignments keep pointing at the same ids (checked at commit).

PRAGMA defer_foreign_keys = ON;

CREATE TABLE endpoints_rebuilt (
    id            INTEGER PRIMARY KEY,
    api_id        INTEGER NOT NULL REFERENCES apis(id) ON DELETE CASCADE,
    version       TEXT    NOT NULL DEFAULT '',
    is_current    INTEGER NOT NULL DEFAULT 1,
    host          TEXT    NOT NULL,              -- lower-cased
    endpoint_key  TEXT    NOT NULL DEFAULT '',   -- the source's endpoint id
    name          TEXT    NOT NULL DEFAULT '',
    description   TEXT    NOT NULL DEFAULT '',
    method        TEXT    NOT NULL,              -- upper-cased
    route         TEXT    NOT NULL,              -- template: /forecast/{location}
    content_type  TEXT    NOT NULL DEFAULT '',   -- request body content type
    body_example  TEXT    NOT NULL DEFAULT '',
    UNIQUE (api_id, version, host, method, route)
);
INSERT INTO endpoints_rebuilt SELECT id, api_id, version, is_current, host, endpoint_key, name, description,
    method, route, content_type, body_example FROM endpoints;

CREATE TEMP TABLE params_kept AS SELECT * FROM params;
DROP TABLE endpoints;
ALTER TABLE endpoints_rebuilt RENAME TO endpoints;
INSERT OR IGNORE INTO params SELECT * FROM params_kept;
DROP TABLE params_kept;

CREATE INDEX endpoints_host ON endpoints(host);
