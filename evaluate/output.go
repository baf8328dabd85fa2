package evaluate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sccg/evaluate/stats"
	"sccg/internal/atomicfile"
)

// WriteOutputs writes DIR/results.jsonl and DIR/summary.json; report.WriteOutputs
// adds the tables (DIR/tables.md), which this package does not render.
func WriteOutputs(dir string, out *Output) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	rs := append([]Result(nil), out.Results...)
	sortResults(rs)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("encode result %s: %w", r.SampleID, err)
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, "results.jsonl"), b.Bytes()); err != nil {
		return err
	}
	sj, err := json.MarshalIndent(out.Summary, "", "  ")
	if err != nil {
		return fmt.Errorf("encode summary: %w", err)
	}
	return atomicfile.Write(filepath.Join(dir, "summary.json"), append(sj, '\n'))
}

// ReadResults reads a results.jsonl (or the results.jsonl inside a directory).
func ReadResults(path string) ([]Result, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "results.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer f.Close()
	var out []Result
	br := bufio.NewReaderSize(f, 1<<20)
	for ln := 1; ; ln++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var r Result
			if jerr := json.Unmarshal(line, &r); jerr != nil {
				return nil, fmt.Errorf("read results %s line %d: %w", path, ln, jerr)
			}
			out = append(out, r)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read results %s: %w", path, err)
		}
	}
}

// MetricNames are the per-completion metrics, in summary order.
var MetricNames = []string{"syntax", "dep", "secret", "host_acc", "endpoint_acc", "method_acc", "param_f1",
	"exec_req", "mock", "robust", "codebleu", "es", "token_p", "token_r", "token_f1", "dep_recall"}

// Value returns a metric of a result by its summary name.
func (m Metrics) Value(name string) (float64, bool) {
	switch name {
	case "syntax":
		return m.Syntax, true
	case "dep":
		return m.Dep, true
	case "secret":
		return m.Secret, true
	case "host_acc":
		return m.HostAcc, true
	case "endpoint_acc":
		return m.EndpointAcc, true
	case "method_acc":
		return m.MethodAcc, true
	case "param_f1":
		return m.ParamF1, true
	case "exec_req":
		return m.ExecReq, true
	case "mock":
		return m.Mock, true
	case "robust":
		return m.Robust, true
	case "codebleu":
		return m.CodeBLEU, true
	case "es":
		return m.ES, true
	case "token_p":
		return m.TokenP, true
	case "token_r":
		return m.TokenR, true
	case "token_f1":
		return m.TokenF1, true
	case "dep_recall":
		return m.DepRecall, true
	}
	return 0, false
}

// Comparison is the outcome of comparing two result sets on one metric.
type Comparison struct {
	Metric    string                   `json:"metric"`
	Paired    *stats.PermutationResult `json:"paired,omitempty"`
	GroupWise stats.PermutationResult  `json:"group_wise"`
}

// CompareOptions configure Compare.
type CompareOptions struct {
	Metrics []string // default: mock, es, codebleu, endpoint_acc, host_acc
	Rounds  int      // permutations; default 10000
	Seed    uint64
}

// Compare runs, per metric, a paired permutation test over the samples present in
// both sets and a group-wise permutation test over all samples of each set. The
// unit is the sample: with n completions per sample its value is the mean over
// them (the completions of one sample are not independent, so counting each
// would make the tests too confident). Samples without an endpoint are left out,
// as in the summary.
func Compare(a, b []Result, o CompareOptions) ([]Comparison, error) {
	if len(o.Metrics) == 0 {
		o.Metrics = []string{"mock", "es", "codebleu", "endpoint_acc", "host_acc"}
	}
	if o.Rounds <= 0 {
		o.Rounds = 10000
	}
	var out []Comparison
	for _, m := range o.Metrics {
		if _, ok := (Metrics{}).Value(m); !ok {
			return nil, fmt.Errorf("compare: unknown metric %q (known: %s)", m, strings.Join(MetricNames, ", "))
		}
		ma, ia := sampleMeans(a, m)
		mb, ib := sampleMeans(b, m)
		c := Comparison{Metric: m}
		var xa, xb []float64
		for _, id := range ia {
			if v, ok := mb[id]; ok {
				xa, xb = append(xa, ma[id]), append(xb, v)
			}
		}
		if len(xa) > 0 {
			pr, err := stats.PairedPermutation(xa, xb, o.Rounds, o.Seed)
			if err != nil {
				return nil, err
			}
			c.Paired = &pr
		}
		ga, gb := make([]float64, len(ia)), make([]float64, len(ib))
		for i, id := range ia {
			ga[i] = ma[id]
		}
		for i, id := range ib {
			gb[i] = mb[id]
		}
		gr, err := stats.GroupPermutation(ga, gb, o.Rounds, o.Seed)
		if err != nil {
			return nil, fmt.Errorf("compare %s: %w", m, err)
		}
		c.GroupWise = gr
		out = append(out, c)
	}
	return out, nil
}

// sampleMeans is the mean of metric over each sample's completions (those with
// an endpoint), and the samples in order.
func sampleMeans(rs []Result, metric string) (map[string]float64, []string) {
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range rs {
		if !r.HasEndpoint {
			continue
		}
		v, _ := r.Value(metric)
		sum[r.SampleID] += v
		n[r.SampleID]++
	}
	ids := slices.Sorted(maps.Keys(n))
	for _, id := range ids {
		sum[id] /= float64(n[id])
	}
	return sum, ids
}

// Stratum returns the value of a result's stratum field: doc_match_type,
// comments_source, time_slice, setting, model or language (python
// for a result that names none).
func (r Result) Stratum(field string) (string, bool) {
	switch field {
	case "doc_match_type":
		return r.DocMatchType, true
	case "comments_source":
		return r.CommentsSource, true
	case "time_slice":
		return r.TimeSlice, true
	case "setting":
		return r.Setting, true
	case "model":
		return r.Model, true
	case "language":
		return languageOf(r), true
	}
	return "", false
}

// SplitBy returns the results whose stratum field equals a and b: the two groups of
// a group-wise comparison inside one result set (e.g. comments_source original vs
// intent_redacted).
func SplitBy(rs []Result, field, a, b string) ([]Result, []Result, error) {
	var ga, gb []Result
	for _, r := range rs {
		v, ok := r.Stratum(field)
		if !ok {
			return nil, nil, fmt.Errorf("compare: unknown stratum %q (doc_match_type, comments_source, time_slice, setting, model, language)", field)
		}
		switch v {
		case a:
			ga = append(ga, r)
		case b:
			gb = append(gb, r)
		}
	}
	return ga, gb, nil
}

// ReadLabels reads a label file for Cohen's kappa: JSON Lines of {"id", "label"},
// or lines "id<TAB>label" / "id,label", or one label per line (paired by position;
// the ids are then "#1", "#2", …). Blank lines and lines starting with # are skipped.
func ReadLabels(path string) (map[string]string, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read labels: %w", err)
	}
	labels := map[string]string{}
	var order []string
	n := 0
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		var id, label string
		switch {
		case strings.HasPrefix(line, "{"):
			var rec struct {
				ID    any `json:"id"`
				Label any `json:"label"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.ID == nil || rec.Label == nil {
				return nil, nil, fmt.Errorf("read labels %s line %d: want {\"id\": …, \"label\": …}", path, i+1)
			}
			id, label = fmt.Sprint(rec.ID), fmt.Sprint(rec.Label)
		case strings.Contains(line, "\t"):
			f := strings.SplitN(line, "\t", 2)
			id, label = strings.TrimSpace(f[0]), strings.TrimSpace(f[1])
		case strings.Contains(line, ","):
			f := strings.SplitN(line, ",", 2)
			id, label = strings.TrimSpace(f[0]), strings.TrimSpace(f[1])
		default:
			id, label = fmt.Sprintf("#%d", n), line
		}
		if _, dup := labels[id]; dup {
			return nil, nil, fmt.Errorf("read labels %s line %d: id %q labelled twice", path, i+1, id)
		}
		labels[id] = label
		order = append(order, id)
	}
	return labels, order, nil
}

// KappaOfFiles computes Cohen's kappa between two label files over the ids both
// label; it also returns the ids only one of them labels.
func KappaOfFiles(path1, path2 string) (stats.Kappa, []string, error) {
	l1, order, err := ReadLabels(path1)
	if err != nil {
		return stats.Kappa{}, nil, err
	}
	l2, order2, err := ReadLabels(path2)
	if err != nil {
		return stats.Kappa{}, nil, err
	}
	var a, b, missing []string
	for _, id := range order {
		if v, ok := l2[id]; ok {
			a = append(a, l1[id])
			b = append(b, v)
		} else {
			missing = append(missing, id)
		}
	}
	for _, id := range order2 {
		if _, ok := l1[id]; !ok {
			missing = append(missing, id)
		}
	}
	k, err := stats.CohensKappa(a, b)
	if err != nil {
		return k, missing, fmt.Errorf("kappa %s vs %s: %w", path1, path2, err)
	}
	return k, missing, nil
}
