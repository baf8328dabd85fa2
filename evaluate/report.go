package evaluate

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"sccg/evaluate/stats"
)

// ReadSummary reads a summary.json.
func ReadSummary(path string) (Summary, error) {
	var s Summary
	b, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("read summary: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("read summary %s: %w", path, err)
	}
	return s, nil
}

// Units is what the intervals of an aggregate count: its samples (the
// completions of one sample are not independent; with one completion each they
// are the same), or its completions for summaries written before samples were
// counted.
func (a Agg) Units() int {
	if a.Samples > 0 {
		return a.Samples
	}
	return a.N
}

// FormatRate formats a 0–1 rate over n (samples, or completions) as the tables
// do: a percentage and its Wilson 95% interval, or "–" when n is 0.
func FormatRate(v float64, n int) string {
	if n == 0 {
		return "–"
	}
	k := int(math.Round(v * float64(n)))
	lo, hi := stats.Wilson(k, n)
	return fmt.Sprintf("%.2f [%.1f–%.1f]", 100*v, 100*lo, 100*hi)
}
