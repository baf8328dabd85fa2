// Package crawl turns API documentation — the live RapidAPI Hub, OpenAPI 3 files and
// ToolBench tool JSON — into OpenAPI-normalized endpoint metadata in the store: the
// ground truth every later stage aligns to.
package crawl
