-- llm: the cache of LLM answers, so that a rerun of any LLM step sends no request.

-- llm_chats keeps one chat-completion answer per request. cache_key is the hex
-- SHA-256 of the canonical JSON of the model, the messages and every decoding
-- parameter (llm.ChatRequest.Key); request is that canonical JSON, kept so a
-- cached answer can be traced to its prompt.
CREATE TABLE llm_chats (
    cache_key   TEXT    PRIMARY KEY,
    model       TEXT    NOT NULL,
    request     TEXT    NOT NULL,               -- canonical JSON of the request
    response    TEXT    NOT NULL,               -- JSON: model, choices (text, finish_reason), usage
    created_at  TEXT    NOT NULL
);
CREATE INDEX llm_chats_model ON llm_chats(model);

-- llm_embeddings keeps one vector per model and text (by the text's hex SHA-256).
CREATE TABLE llm_embeddings (
    model       TEXT    NOT NULL,
    text_sha256 TEXT    NOT NULL,
    dims        INTEGER NOT NULL,
    vector      BLOB    NOT NULL,               -- dims little-endian float32
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (model, text_sha256)
);
