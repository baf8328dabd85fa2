package main

import "testing"

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
