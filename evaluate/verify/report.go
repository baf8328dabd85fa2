package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"sccg/release"
)

// Summary counts the verdicts overall, by split and by doc_match_type, and keeps
// a few examples of each.
type Summary struct {
	Samples     int                       `json:"samples"`
	ByVerdict   map[string]int            `json:"by_verdict"`
	BySplit     map[string]map[string]int `json:"by_split"`
	ByMatchType map[string]map[string]int `json:"by_doc_match_type"`
	// Details counts the verdicts that have one, as "verdict/detail".
	Details map[string]int `json:"details,omitempty"`
	// Duplicates are the samples that copy another; CrossSplit those whose original
	// is in another split.
	Duplicates      int `json:"duplicates"`
	ExactDuplicates int `json:"exact_duplicates"`
	CrossSplit      int `json:"cross_split_duplicates"`
	Fixes           int `json:"proposed_fixes"`
	// CommentLeaks counts the samples whose comments give away part of the label,
	// by comments_source.
	CommentLeaks map[string]int `json:"comment_leaks"`
	Clean        int            `json:"clean"`
	// Examples are up to three samples of each verdict with the note that says why.
	Examples map[string][]Example `json:"examples"`
}

// Example is one sample shown for its verdict.
type Example struct {
	SampleID string `json:"sample_id"`
	Note     string `json:"note"`
}

// examplesPerVerdict bounds Summary.Examples.
const examplesPerVerdict = 3

func summarize(cs []Checked) Summary {
	s := Summary{Samples: len(cs), ByVerdict: map[string]int{}, BySplit: map[string]map[string]int{},
		ByMatchType: map[string]map[string]int{}, Details: map[string]int{}, Examples: map[string][]Example{},
		CommentLeaks: map[string]int{}}
	bump := func(m map[string]map[string]int, k, v string) {
		if k == "" {
			k = "unknown"
		}
		if m[k] == nil {
			m[k] = map[string]int{}
		}
		m[k][v]++
	}
	for _, c := range cs {
		v := c.Verification
		s.ByVerdict[v.Verdict]++
		bump(s.BySplit, c.Split, v.Verdict)
		bump(s.ByMatchType, c.DocMatchType, v.Verdict)
		if v.Detail != "" {
			s.Details[v.Verdict+"/"+v.Detail]++
		}
		if v.DuplicateOf != "" {
			s.Duplicates++
			if v.DuplicateKind == DuplicateExact {
				s.ExactDuplicates++
			}
			if v.CrossSplit {
				s.CrossSplit++
			}
		}
		if v.Fix != nil {
			s.Fixes++
		}
		if v.CommentLeak != nil {
			s.CommentLeaks[c.CommentsSource]++
		}
		if c.Clean() {
			s.Clean++
		}
		if len(s.Examples[v.Verdict]) < examplesPerVerdict {
			s.Examples[v.Verdict] = append(s.Examples[v.Verdict], Example{SampleID: c.SampleID, Note: v.Evidence.Note})
		}
	}
	return s
}

// WriteText writes the summary as a person reads it: verdicts by doc_match_type,
// by split, and examples.
func (r *Report) WriteText(w io.Writer) {
	s := r.Summary
	types := slices.Sorted(maps.Keys(s.ByMatchType))
	fmt.Fprintf(w, "verified %d samples: %d consistent, %d clean (consistent and unique)\n\n", s.Samples, s.ByVerdict[Consistent], s.Clean)
	fmt.Fprintf(w, "%-20s %6s", "verdict", "all")
	for _, t := range types {
		fmt.Fprintf(w, " %10s", t)
	}
	fmt.Fprintln(w)
	for _, v := range Verdicts {
		if s.ByVerdict[v] == 0 {
			continue
		}
		fmt.Fprintf(w, "%-20s %6d", v, s.ByVerdict[v])
		for _, t := range types {
			fmt.Fprintf(w, " %10d", s.ByMatchType[t][v])
		}
		fmt.Fprintln(w)
	}
	if len(s.Details) > 0 {
		fmt.Fprintf(w, "\n")
		for _, k := range slices.Sorted(maps.Keys(s.Details)) {
			fmt.Fprintf(w, "  %-36s %d\n", k, s.Details[k])
		}
	}
	if len(s.BySplit) > 1 || s.BySplit["unknown"] == nil {
		fmt.Fprintf(w, "\nby split:")
		for _, sp := range slices.Sorted(maps.Keys(s.BySplit)) {
			fmt.Fprintf(w, "  %s %d/%d consistent", sp, s.BySplit[sp][Consistent], total(s.BySplit[sp]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nduplicates: %d (%d exact), %d across splits; proposed fixes: %d\n", s.Duplicates, s.ExactDuplicates, s.CrossSplit, s.Fixes)
	if len(s.CommentLeaks) > 0 {
		fmt.Fprintf(w, "comments that give away the label (LeakCheck):")
		for _, k := range slices.Sorted(maps.Keys(s.CommentLeaks)) {
			fmt.Fprintf(w, " %s %d", k, s.CommentLeaks[k])
		}
		fmt.Fprintln(w)
	}
	for _, v := range Verdicts {
		if v == Consistent || len(s.Examples[v]) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s, for example:\n", v)
		for _, e := range s.Examples[v] {
			fmt.Fprintf(w, "  %s  %s\n", e.SampleID, e.Note)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// WriteFiles writes into dir: verified.json (every record with its verification
// object beside the published fields), clean.json (the consistent, unique records
// only) and summary.json.
func (r *Report) WriteFiles(dir string, smps []Sample) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	byID := map[string]Checked{}
	for _, c := range r.Samples {
		byID[c.SampleID] = c
	}
	var all, clean []release.Record
	done := map[string]bool{}
	for _, s := range smps {
		c, ok := byID[s.Record.SampleID]
		if !ok || done[c.SampleID] {
			continue
		}
		done[c.SampleID] = true
		rec := s.Record
		b, err := json.Marshal(c.Verification)
		if err != nil {
			return fmt.Errorf("verify %s: %w", c.SampleID, err)
		}
		extra := make(map[string]json.RawMessage, len(rec.Extra)+1)
		for k, v := range rec.Extra {
			extra[k] = v
		}
		extra["verification"] = b
		rec.Extra = extra
		all = append(all, rec)
		if c.Clean() {
			clean = append(clean, s.Record)
		}
	}
	for name, recs := range map[string][]release.Record{"verified.json": all, "clean.json": clean} {
		b, err := release.Encode(recs, release.JSON)
		if err != nil {
			return fmt.Errorf("verify %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
	}
	b, err := release.EncodeJSON(r.Summary)
	if err != nil {
		return fmt.Errorf("verify summary: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), b, 0o644)
}
