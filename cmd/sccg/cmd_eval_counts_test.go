package main

import (
	"strings"
	"testing"

	"sccg/evaluate"
	"sccg/evaluate/sandbox"
)

func TestCountsLine(t *testing.T) {
	for _, tc := range []struct {
		counts map[string]int64
		most   int
		want   string
	}{
		{map[string]int64{"imports pickle": 2, "batch ended": 5, "calls eval": 2}, 8,
			"batch ended 5, calls eval 2, imports pickle 2"},
		{map[string]int64{"a": 1, "b": 3, "c": 2}, 2, "b 3, c 2, and 1 more reasons"},
		{map[string]int64{}, 3, ""},
	} {
		if got := countsLine(tc.counts, tc.most); got != tc.want {
			t.Errorf("countsLine(%v, %d) = %q, want %q", tc.counts, tc.most, got, tc.want)
		}
	}
}

// TestRunsLinesNameFallbacks: the runs in a child of their own and the batch
// children that compared every namespace are printed with their reasons.
func TestRunsLinesNameFallbacks(t *testing.T) {
	e, out, _ := newTestEnv(t)
	runs := &evaluate.RunCounts{Runs: 10, BatchStats: sandbox.BatchStats{Batched: 7, Own: 3, NotTame: 2,
		OwnWhy:         map[string]int64{"imports pickle": 2, "batch ended": 1},
		FullCompare:    map[string]int64{"dict version tags not where CPython 3.11 keeps them": 2},
		ServersDropped: 1}}
	printEvalSummary(e, evaluate.Summary{Isolation: "test"}, runs)
	for _, want := range []string{
		"  in a child of its own: imports pickle 2, batch ended 1\n",
		"  batch children comparing every namespace after each job (slower): dict version tags not where CPython 3.11 keeps them 2\n",
		"  fork servers of batches dropped, a batch child's end unreported: 1\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}
