// Package corpus is the bulk-corpus side of the mine stage: it reads shards of a
// Parquet or JSONL export of public repositories (The Stack v2's columns, or a
// GitHub / BigQuery export's), applies the early filter to each row — one
// Aho–Corasick pass for every crawled host at once, then the same layer matching as
// `mine --local` — and writes what passes, with its provenance, as output shards
// that Load takes into the store. The Apache Beam pipeline that runs this at scale
// is in the beamjob sub-package; this package has no Beam dependency, so the CLI can
// pack corpora and load outputs without it. Pack writes a folder of repositories in
// the same format, so one held-out corpus can be mined both ways.
//
// Nothing here assumes one machine: a shard is read and judged on its own, the
// targets travel inside the Filter, and an output shard's name and content depend
// only on the records in it.
package corpus
