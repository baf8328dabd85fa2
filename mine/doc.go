// Package mine finds the source files that call the crawled APIs — through GitHub code
// search with multi-level matching, or in a local directory of repositories — and
// stores each with its provenance. Its sub-package corpus does the same for bulk
// corpora (Parquet / JSONL exports of public repositories), on Apache Beam through
// corpus/beamjob.
//
// Mine searches each API from the strictest query layer to the loosest (endpoint URL,
// route and host, host, x-rapidapi-host header, HTTP library, function definition),
// skipping the loose layers once an API has enough files or once its host query was
// complete (they can only find files it found). Each token has its own pacing
// limiter; rate-limit answers are waited out through an injected Clock. Saturated
// queries are split by size, then by extension. A search hit is dropped when the
// fragments GitHub matched do not show the host; a file already stored or judged is
// never fetched again, content pinned to a commit is never re-read, and repository
// metadata is refreshed with its ETag. Work is resumable per (API, layer, query,
// page). MineLocal applies the same matching to git clones and plain folders.
package mine
