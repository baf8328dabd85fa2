// Package provenance answers a reviewer's question "why is X (not) in the
// benchmark?" from the decisions every stage recorded in the store: `sccg why`
// over any subject (a sample, function, file, repository, API or description
// file), the audit of one sample's whole lineage (`sccg audit`, and the lineage on
// the report's sample pages), and the summary of what a command's runs rejected
// that every stage command prints.
//
// It reads the store only and imports no stage: it knows the stages by the names
// their decisions carry (Stages).
package provenance
