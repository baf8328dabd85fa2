package evaluate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"

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

// rate formats a 0–1 rate over n as a percentage with its Wilson 95% interval.
func rate(v float64, n int) string {
	if n == 0 {
		return "–"
	}
	k := int(math.Round(v * float64(n)))
	lo, hi := stats.Wilson(k, n)
	return fmt.Sprintf("%.2f [%.1f–%.1f]", 100*v, 100*lo, 100*hi)
}

// FormatRate formats a 0–1 rate over n completions as the tables do: a percentage
// and its Wilson 95% interval, or "–" when n is 0.
func FormatRate(v float64, n int) string { return rate(v, n) }

func pct(v float64) string { return fmt.Sprintf("%.2f", 100*v) }

// WriteTables renders the paper's tables from one or more summaries: Table IV
// (static similarity), Table V (executability diagnostics, Wilson 95% intervals on
// every rate), Table VI (earliest-failure attribution), the doc_match_type strata,
// the samples without an endpoint, dependency recall, and pass@k.
func WriteTables(w io.Writer, sums []Summary) error {
	var groups []Group
	for _, s := range sums {
		groups = append(groups, s.Groups...)
	}
	var b strings.Builder
	b.WriteString("### Table IV: static similarity\n\n")
	b.WriteString("| Setting | Model | N | CodeBLEU | CodeBLEU (corpus) | ES | Prec. | Recall | F1 |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, g := range groups {
		o := g.Overall
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", g.Setting, g.Model, o.N, pct(o.CodeBLEU),
			pct(g.CorpusCodeBLEU.Score), pct(o.ES), pct(o.TokenP), pct(o.TokenR), pct(o.TokenF1))
	}
	b.WriteString("\n### Table V: executability diagnostics (%, Wilson 95% interval)\n\n")
	b.WriteString("| Setting | Model | N | Syntax | Dep. | Secret | Host@Acc | Endpoint@Acc | Method@Acc | ParamF1 | ExecReq | Mock | Robust |\n")
	b.WriteString("| --- | --- | ---: | --- | --- | --- | --- | --- | --- | ---: | --- | --- | --- |\n")
	for _, g := range groups {
		o := g.Overall
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", g.Setting, g.Model, o.N,
			rate(o.Syntax, o.N), rate(o.Dep, o.N), rate(o.Secret, o.N), rate(o.HostAcc, o.N), rate(o.EndpointAcc, o.N),
			rate(o.MethodAcc, o.N), pct(o.ParamF1), rate(o.ExecReq, o.N), rate(o.Mock, o.N), rate(o.Robust, o.N))
	}
	b.WriteString("\n### Table VI: earliest-failure attribution\n\n")
	b.WriteString("| Setting | Model | Earliest stage | Count | Share (Wilson 95%) |\n")
	b.WriteString("| --- | --- | --- | ---: | --- |\n")
	stageNames := map[string]string{StageSyntax: "Syntax error", StageRequest: "Request construction failure",
		StageHost: "Host error", StageEndpoint: "Endpoint error", StageMethod: "Method error", StageHit: "Mock hit"}
	for _, g := range groups {
		n := 0
		for _, c := range g.FailureStages {
			n += c
		}
		for _, st := range Stages {
			c := g.FailureStages[st]
			share := 0.0
			if n > 0 {
				share = float64(c) / float64(n)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s |\n", g.Setting, g.Model, stageNames[st], c, rate(share, n))
		}
	}
	b.WriteString("\n### By doc_match_type\n\n")
	b.WriteString("| Setting | Model | doc_match_type | N | Host@Acc | Endpoint@Acc | Method@Acc | ExecReq | Mock |\n")
	b.WriteString("| --- | --- | --- | ---: | --- | --- | --- | --- | --- |\n")
	for _, g := range groups {
		for _, k := range slices.Sorted(maps.Keys(g.ByDocMatchType)) {
			a := g.ByDocMatchType[k]
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", g.Setting, g.Model, k, a.N,
				rate(a.HostAcc, a.N), rate(a.EndpointAcc, a.N), rate(a.MethodAcc, a.N), rate(a.ExecReq, a.N), rate(a.Mock, a.N))
		}
	}
	hasNoEP := false
	for _, g := range groups {
		hasNoEP = hasNoEP || g.NoEndpoint != nil
	}
	if hasNoEP {
		b.WriteString("\n### Samples without an endpoint (host_only; scored on host and method)\n\n")
		b.WriteString("| Setting | Model | N | Host@Acc | Method@Acc | ExecReq | Host∧Method |\n")
		b.WriteString("| --- | --- | ---: | --- | --- | --- | --- |\n")
		for _, g := range groups {
			if h := g.NoEndpoint; h != nil {
				fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s |\n", g.Setting, g.Model, h.N, rate(h.HostAcc, h.N),
					rate(h.MethodAcc, h.N), rate(h.ExecReq, h.N), rate(h.Mock, h.N))
			}
		}
	}
	b.WriteString("\n### Dependency recall (DevEval: the share of the gold code's third-party imports the completion imports)\n\n")
	b.WriteString("| Setting | Model | N | DepRecall | DepRecall@k |\n| --- | --- | ---: | ---: | --- |\n")
	for _, g := range groups {
		o := g.Overall
		cell := "–"
		if o.NDepRecall > 0 {
			cell = pct(o.DepRecall)
		}
		var parts []string
		for _, k := range sortedAtK(g.DepRecallAtK, "dep_recall@%d") {
			parts = append(parts, fmt.Sprintf("%s = %s", k, pct(g.DepRecallAtK[k])))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", g.Setting, g.Model, o.NDepRecall, cell, strings.Join(parts, ", "))
	}
	b.WriteString("\n### pass@k (Mock, unbiased estimator)\n\n")
	b.WriteString("| Setting | Model | pass@k |\n| --- | --- | --- |\n")
	for _, g := range groups {
		var parts []string
		for _, k := range sortedAtK(g.PassAtK, "pass@%d") {
			parts = append(parts, fmt.Sprintf("%s = %s", k, pct(g.PassAtK[k])))
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", g.Setting, g.Model, strings.Join(parts, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sortedAtK orders the keys of an @k map ("pass@1", "pass@10", …) by k; format
// reads k from a key.
func sortedAtK(m map[string]float64, format string) []string {
	k := func(s string) int {
		var n int
		fmt.Sscanf(s, format, &n)
		return n
	}
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Compare(k(a), k(b)) })
}
