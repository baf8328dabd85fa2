-- crawl: APIs, their endpoints and parameters, normalized from any documentation source.

CREATE TABLE apis (
    id            INTEGER PRIMARY KEY,
    source        TEXT    NOT NULL,              -- rapidapi | openapi | toolbench
    owner         TEXT    NOT NULL DEFAULT '',
    slug          TEXT    NOT NULL,
    title         TEXT    NOT NULL DEFAULT '',
    category      TEXT    NOT NULL DEFAULT '',
    description   TEXT    NOT NULL DEFAULT '',
    host          TEXT    NOT NULL DEFAULT '',   -- host of the current version
    pricing       TEXT    NOT NULL DEFAULT '',
    popularity    REAL,
    subscribers   INTEGER,
    latency_ms    REAL,
    success_rate  REAL,
    version       TEXT    NOT NULL DEFAULT '',   -- name of the current version
    url           TEXT    NOT NULL DEFAULT '',   -- page URL or file path it came from
    blob_sha256   TEXT    REFERENCES blobs(sha256),
    openapi       TEXT    NOT NULL DEFAULT '',   -- normalized OpenAPI 3 document (JSON)
    extra         TEXT    NOT NULL DEFAULT '{}', -- JSON: source facts with no column
    crawled_at    TEXT    NOT NULL,
    UNIQUE (source, owner, slug)
);
CREATE INDEX apis_host ON apis(host);

CREATE TABLE endpoints (
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
    UNIQUE (api_id, version, method, route)
);
CREATE INDEX endpoints_host ON endpoints(host);

CREATE TABLE params (
    id            INTEGER PRIMARY KEY,
    endpoint_id   INTEGER NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    location      TEXT    NOT NULL,              -- query | path | header | body | form
    type          TEXT    NOT NULL DEFAULT 'string', -- OpenAPI type
    required      INTEGER NOT NULL DEFAULT 0,
    example       TEXT    NOT NULL DEFAULT '',
    default_value TEXT    NOT NULL DEFAULT '',
    description   TEXT    NOT NULL DEFAULT '',
    UNIQUE (endpoint_id, location, name)
);
