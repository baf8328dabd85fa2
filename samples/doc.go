// Package samples turns the kept functions into benchmark samples and moves them in
// and out of the store: building each sample's published record from its function,
// alignment and intents; import of a benchmark in the release format and export to
// it with the dataset statistics (stats.json: sizes, effective LOC, dependencies).
// The audit view of one sample's whole lineage is package provenance's.
package samples
