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

// nOf is a group's N as the tables print it: the completions, and the samples
// they cover when the group is partial ("10 (10 of 130 samples)").
func nOf(g Group, n int) string {
	if g.Expected > 0 && g.Partial() {
		return fmt.Sprintf("%d (%d of %d samples)", n, g.Covered, g.Expected)
	}
	return fmt.Sprint(n)
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
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", g.Setting, g.Model, nOf(g, o.N), pct(o.CodeBLEU),
			pct(g.CorpusCodeBLEU.Score), pct(o.ES), pct(o.TokenP), pct(o.TokenR), pct(o.TokenF1))
	}
	b.WriteString("\n### Table V: executability diagnostics (%, Wilson 95% interval over samples)\n\n")
	b.WriteString("| Setting | Model | N | Syntax | Dep. | Secret | Host@Acc | Endpoint@Acc | Method@Acc | ParamF1 | ExecReq | Mock | Robust |\n")
	b.WriteString("| --- | --- | ---: | --- | --- | --- | --- | --- | --- | ---: | --- | --- | --- |\n")
	for _, g := range groups {
		o := g.Overall
		u := o.Units()
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", g.Setting, g.Model, nOf(g, o.N),
			rate(o.Syntax, u), rate(o.Dep, u), rate(o.Secret, u), rate(o.HostAcc, u), rate(o.EndpointAcc, u),
			rate(o.MethodAcc, u), pct(o.ParamF1), rate(o.ExecReq, u), rate(o.Mock, u), rate(o.Robust, u))
	}
	b.WriteString("\n### Answers: how the model answered, and the samples covered\n\n")
	b.WriteString("| Setting | Model | Samples | Truncated | Reasoning | Prose trimmed | No code | Empty | Syntax errors | Root routes |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, g := range groups {
		a := g.Answers
		cov := "–"
		if g.Expected > 0 {
			cov = fmt.Sprintf("%d of %d", g.Covered, g.Expected)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d |\n", g.Setting, g.Model, cov, a.Truncated, a.Reasoning,
			a.Trimmed, a.NoCode, a.Empty, a.SyntaxErrors, g.RootRoutes)
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
		u := n
		if g.Overall.Samples > 0 && g.Overall.N == n {
			u = g.Overall.Samples
		}
		for _, st := range Stages {
			c := g.FailureStages[st]
			share := 0.0
			if n > 0 {
				share = float64(c) / float64(n)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s |\n", g.Setting, g.Model, stageNames[st], c, rate(share, u))
		}
	}
	b.WriteString("\n### By doc_match_type\n\n")
	b.WriteString("| Setting | Model | doc_match_type | N | Host@Acc | Endpoint@Acc | Method@Acc | ExecReq | Mock |\n")
	b.WriteString("| --- | --- | --- | ---: | --- | --- | --- | --- | --- |\n")
	for _, g := range groups {
		for _, k := range slices.Sorted(maps.Keys(g.ByDocMatchType)) {
			a := g.ByDocMatchType[k]
			u := a.Units()
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", g.Setting, g.Model, k, a.N,
				rate(a.HostAcc, u), rate(a.EndpointAcc, u), rate(a.MethodAcc, u), rate(a.ExecReq, u), rate(a.Mock, u))
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
		if len(g.PassAtKOmitted) > 0 {
			parts = append(parts, "not estimable: "+strings.Join(g.PassAtKOmitted, ", "))
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
