// Package mine finds the source files that call the crawled APIs — through GitHub code
// search with multi-level matching, or in a local directory of repositories — and
// stores each with its provenance. Its sub-package pyast extracts request functions
// from the Python files it finds.
package mine
