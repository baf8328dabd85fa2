package retrieve

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/sandbox"
	"sccg/internal/workpool"
	"sccg/lang"
	"sccg/release"
)

// Query is one benchmark sample to retrieve for: the text a retriever is given and
// the ground truth its hits are judged against.
type Query struct {
	SampleID     string `json:"sample_id"`
	DocMatchType string `json:"doc_match_type"`
	Text         string `json:"query"`
	// TextSource says what Text is: "comments" (the sample's intent: its comments,
	// one per line), "function_name" (no comment: the function's name, split into
	// words) or "comments+function_name".
	TextSource string `json:"query_source"`
	// Truth is the labeled endpoint, as the evaluator derives it.
	Truth      evaluate.GroundTruth `json:"truth"`
	EndpointID string               `json:"endpoint_id,omitempty"`
	// Called are the requests the sample's gold code sends in the sandbox (empty
	// when it was not run): with the labeled endpoint they make the set of
	// endpoints the sample uses, which recall@k and precision@k are measured on.
	Called []evaluate.Captured `json:"-"`
	// Code is the gold code, run by AddGoldCalls in the runner of its Language.
	Code     string    `json:"-"`
	Function string    `json:"-"`
	Language lang.Name `json:"-"`
}

// QueryOptions choose a query's text.
type QueryOptions struct {
	// WithName adds the function name (split into words) after the comments.
	WithName bool
}

// QueryOf makes the query of a benchmark record: its comments (the intent), or its
// function name when it has none.
func QueryOf(r release.Record, o QueryOptions) Query {
	q := Query{SampleID: r.SampleID, DocMatchType: orUnknown(r.APIMetadata.DocMatchType), Truth: evaluate.TruthOf(r),
		EndpointID: r.APIMetadata.EndpointID, Code: r.Code.CompleteFunction, Function: r.FunctionName, Language: lang.Of(r.Language)}
	var lines []string
	for _, c := range r.Comments {
		if t := strings.TrimSpace(c.Text); t != "" {
			lines = append(lines, t)
		}
	}
	name := strings.Join(strings.FieldsFunc(r.FunctionName, func(r rune) bool { return r == '_' }), " ")
	switch {
	case len(lines) == 0:
		q.Text, q.TextSource = name, "function_name"
	case o.WithName && name != "":
		q.Text, q.TextSource = strings.Join(append(lines, name), "\n"), "comments+function_name"
	default:
		q.Text, q.TextSource = strings.Join(lines, "\n"), "comments"
	}
	return q
}

// Queries makes the queries of records.
func Queries(recs []release.Record, o QueryOptions) []Query {
	out := make([]Query, len(recs))
	for i, r := range recs {
		out[i] = QueryOf(r, o)
	}
	return out
}

// GoldRunner runs a gold code: the Python sandbox, or a JavaScript runner
// (evaluate.Runner is one).
type GoldRunner interface {
	Run(ctx context.Context, code, function string) (sandbox.Result, error)
}

// AddGoldCalls runs every query's gold code once, in the runner of its language,
// and keeps the requests it sends in Called. A run that fails sends none; that is
// not an error. The gold code of a language runners lack is not run: unrun counts
// those queries by language (their used endpoints are the labeled one only).
func AddGoldCalls(ctx context.Context, runners map[lang.Name]GoldRunner, qs []Query, workers int) (unrun map[lang.Name]int, err error) {
	unrun = map[lang.Name]int{}
	var run []int
	for i, q := range qs {
		switch {
		case q.Code == "":
		case runners[lang.Of(string(q.Language))] == nil:
			unrun[lang.Of(string(q.Language))]++
		default:
			run = append(run, i)
		}
	}
	err = workpool.ForEach(ctx, workers, len(run), func(i int) error {
		q := &qs[run[i]]
		res, err := runners[lang.Of(string(q.Language))].Run(ctx, q.Code, q.Function)
		if err != nil {
			return fmt.Errorf("run gold code of %s: %w", q.SampleID, err)
		}
		q.Called = q.Called[:0]
		for _, r := range res.Requests {
			q.Called = append(q.Called, evaluate.ParseRequest(r))
		}
		return nil
	})
	return unrun, err
}

// Languages lists the languages of queries with gold code to run, sorted.
func Languages(qs []Query) []lang.Name {
	seen := map[lang.Name]bool{}
	for _, q := range qs {
		if q.Code != "" {
			seen[lang.Of(string(q.Language))] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// Judgement is which documents of a corpus answer a query.
type Judgement struct {
	// Gold are the documents of the labeled endpoint: the one whose endpoint id is
	// the label's, else those on a gold host with the label's method whose route
	// template matches the label's route (the most specific), else the same
	// without the method. Empty when the corpus lacks it.
	Gold []int
	// Match says which rule found Gold: "endpoint_id", "route+method", "route", or
	// "" when the corpus lacks the endpoint (or the label names none).
	Match string
	// Used are the documents of every endpoint the sample uses: Gold and the
	// documents matching a request its gold code sends (host, route, method).
	Used []int
	// UsedMissing counts used endpoints that are not in the corpus (the labeled one
	// when Gold is empty); they count against recall.
	UsedMissing int
	// Unmatched counts the gold code's requests that match no document (calls to
	// other services, say); they are not counted as used endpoints.
	Unmatched int

	hosts map[string]bool
}

// IsHost reports whether document i is served by a gold host.
func (j *Judgement) IsHost(c *Corpus, i int) bool { return j.hosts[c.Docs[i].Host] }

// IsGold reports whether document i is the labeled endpoint.
func (j *Judgement) IsGold(i int) bool { return slices.Contains(j.Gold, i) }

// IsUsed reports whether document i is an endpoint the sample uses.
func (j *Judgement) IsUsed(i int) bool { return slices.Contains(j.Used, i) }

// Judge finds the documents that answer q.
func (c *Corpus) Judge(q Query) Judgement {
	j := Judgement{hosts: map[string]bool{}}
	for _, h := range q.Truth.Hosts {
		j.hosts[h] = true
	}
	if q.Truth.HasEndpoint() {
		j.Gold, j.Match = c.goldDocs(q, j.hosts)
		j.Used = append(j.Used, j.Gold...)
		if len(j.Gold) == 0 {
			j.UsedMissing = 1
		}
	}
	for _, call := range q.Called {
		i, ok := c.matchCall(call)
		if !ok {
			j.Unmatched++
			continue
		}
		if !slices.Contains(j.Used, i) {
			j.Used = append(j.Used, i)
		}
	}
	return j
}

func (c *Corpus) goldDocs(q Query, hosts map[string]bool) ([]int, string) {
	var onHosts []int
	for h := range hosts {
		onHosts = append(onHosts, c.byHost[h]...)
	}
	slices.Sort(onHosts)
	if q.EndpointID != "" {
		var out []int
		for _, i := range onHosts {
			if c.Docs[i].Key == q.EndpointID {
				out = append(out, i)
			}
		}
		if len(out) > 0 {
			return out, "endpoint_id"
		}
	}
	for _, withMethod := range []bool{true, false} {
		best, bestSpec := []int(nil), 0
		for _, i := range onHosts {
			if withMethod && c.Docs[i].Method != q.Truth.Method {
				continue
			}
			r := c.routes[i]
			if !r.Match(q.Truth.Route) {
				continue
			}
			switch spec := r.Specificity(); {
			case best == nil || spec > bestSpec:
				best, bestSpec = []int{i}, spec
			case spec == bestSpec:
				best = append(best, i)
			}
		}
		if best != nil {
			if withMethod {
				return best, "route+method"
			}
			return best, "route"
		}
	}
	return nil, ""
}

// matchCall finds the document a captured request calls: same host and method, the
// most specific route template matching its path.
func (c *Corpus) matchCall(call evaluate.Captured) (int, bool) {
	best, bestSpec := -1, 0
	for _, i := range c.byHost[call.Host] {
		if c.Docs[i].Method != call.Method {
			continue
		}
		r := c.routes[i]
		if r.Match(call.Path) && (best < 0 || r.Specificity() > bestSpec) {
			best, bestSpec = i, r.Specificity()
		}
	}
	return best, best >= 0
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
