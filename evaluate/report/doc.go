// Package report renders the paper's tables and figures from the files the other
// commands write, as one self-contained web page (index.html: styles, script and SVG
// figures inline, nothing fetched), a Markdown file (report.md, with the figures
// beside it under figures/) and a page per sample (samples/ID.html).
//
// It reads, and never runs anything:
//
//   - `sccg eval` output directories: summary.json (Tables IV–VI, pass@k, strata),
//     results.jsonl (per-sample detail and the strata's permutation tests) and, when
//     present, generations.jsonl (the completions the results score);
//   - `sccg experiment` grids: grid.json (read as GridIndex: the cells, each with
//     its results directory, the settings' order, the grid's statistics tests and
//     notes);
//   - `sccg export` directories: stats.json (Table II; read as release.Stats) and
//     sccgbench.json (the benchmark: intents, gold code, the LOC and API figures);
//   - `sccg retrieve --out` files: one retrieve.Report per retriever (Table VIII,
//     the ranking table, each sample's ranks);
//   - optionally a store, for the completions of stored evaluations, and a lineage
//     source (what `sccg audit` shows), which the caller passes in as a function:
//     the report imports no builder stage.
//
// A table or figure whose data is absent is left out, and the page says why.
//
// The tables are built here and nowhere else: WriteTables renders the tables of
// summaries in Markdown with the same builders (an eval's and a grid's tables.md,
// `sccg report SUMMARY...`), and WriteOutputs writes an evaluation's outputs with
// them.
package report
