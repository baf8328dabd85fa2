package leakcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"sccg/lang"
	"sccg/lang/frontends"
	"slices"
	"sort"
	"strings"

	"sccg/release"
)

// RecordTruth is the ground truth of a record in the published format, as LeakCheck
// needs it: host, URL and route from api_metadata, the API's names (api_name, and
// the slug and title of a built record's api_info), the documented parameter names,
// and the parameter keys and literal values the record's own code sends (read from
// complete_function with the extractor).
func RecordTruth(ctx context.Context, r *release.Record) (Truth, error) {
	m := r.APIMetadata
	g := Truth{Host: strings.ToLower(strings.TrimSpace(r.APIHost)), URL: m.URL, Route: m.Route}
	if strings.Contains(g.Route, "://") {
		g.Route = "" // a whole URL recorded as the route: the URL check covers it
	}
	g.APINames = appendNew(g.APINames, r.APIName)
	var info struct {
		Slug  string `json:"slug"`
		Title string `json:"title"`
	}
	if raw, ok := r.Extra["api_info"]; ok && json.Unmarshal(raw, &info) == nil {
		g.APINames = appendNew(g.APINames, info.Slug, info.Title)
	}
	for _, raw := range []json.RawMessage{m.Params, m.PathParams, m.HeaderParams} {
		g.ParamKeys = appendNew(g.ParamKeys, documentedNames(raw)...)
	}
	g.ParamKeys = appendNew(g.ParamKeys, payloadKeys(m.Payload)...)
	if code := r.Code.CompleteFunction; code != "" {
		fe, _, err := frontends.ForRecord(r)
		if err != nil {
			return g, fmt.Errorf("truth of %s: %w", r.SampleID, err)
		}
		res, err := fe.Extract(ctx, r.GitHubInfo.FilePath, []byte(code), lang.ExtractOptions{})
		if err != nil {
			return g, fmt.Errorf("truth of %s: extract its code: %w", r.SampleID, err)
		}
		for _, f := range res.Functions {
			if r.FunctionName != "" && f.Name != r.FunctionName {
				continue
			}
			for _, c := range f.Facts.Calls {
				if c.Host != "" && g.Host != "" && c.Host != g.Host {
					continue
				}
				for _, p := range c.Params {
					g.ParamKeys = appendNew(g.ParamKeys, p.Name)
					if p.Literal {
						g.ParamValues = appendNew(g.ParamValues, p.Example)
					}
				}
			}
		}
	}
	return g, nil
}

// appendNew appends the non-empty values of vs that xs does not hold yet.
func appendNew(xs []string, vs ...string) []string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(xs, v) {
			xs = append(xs, v)
		}
	}
	return xs
}

// documentedNames reads the names of a documented parameter list: names, or
// objects with a name.
func documentedNames(raw json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []string
	for _, it := range list {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, s)
			continue
		}
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(it, &p) == nil && p.Name != "" {
			out = append(out, p.Name)
		}
	}
	return out
}

// payloadKeys reads the top-level keys of a documented payload example (or of its
// schema's properties).
func payloadKeys(raw json.RawMessage) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	if p, ok := obj["properties"]; ok {
		var props map[string]json.RawMessage
		if json.Unmarshal(p, &props) == nil {
			obj = props
		}
	}
	out := make([]string, 0, len(obj))
	for k := range obj {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// CommentText is the text of a record's comments that LeakCheck reads: each
// comment on its own line.
func CommentText(r *release.Record) string {
	parts := make([]string, 0, len(r.Comments))
	for _, c := range r.Comments {
		if t := strings.TrimSpace(c.Text); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// BenchSample is LeakCheck's verdict on one record's comments.
type BenchSample struct {
	SampleID       string   `json:"sample_id"`
	CommentsSource string   `json:"comments_source"`
	Leaked         bool     `json:"leaked"`
	Tokens         []string `json:"tokens"`
	Leaks          []Leak   `json:"leaks,omitempty"`
	Text           string   `json:"-"`
}

// SourceFigures are the leak figures of the records of one comments_source.
type SourceFigures struct {
	Samples int            `json:"samples"`
	Leaked  int            `json:"leaked"`
	Rate    float64        `json:"rate"`
	ByKind  map[string]int `json:"by_kind"` // leaked samples with a leak of each kind
}

// BenchReport is LeakCheck over the comments of a whole benchmark.
type BenchReport struct {
	Total    SourceFigures             `json:"total"`
	BySource map[string]*SourceFigures `json:"by_comments_source"`
	Samples  []BenchSample             `json:"samples"`
}

// CheckBench runs LeakCheck over every record's comments against the record's own
// ground truth.
func CheckBench(ctx context.Context, recs []release.Record) (*BenchReport, error) {
	rep := &BenchReport{BySource: map[string]*SourceFigures{}, Total: SourceFigures{ByKind: map[string]int{}}, Samples: []BenchSample{}}
	for i := range recs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := &recs[i]
		g, err := RecordTruth(ctx, r)
		if err != nil {
			return nil, err
		}
		text := CommentText(r)
		lr := LeakCheck(text, g)
		src := r.CommentsSource
		if src == "" {
			src = "(none)"
		}
		bs := BenchSample{SampleID: r.SampleID, CommentsSource: src, Leaked: lr.Leaked, Tokens: lr.Tokens(), Leaks: lr.Leaks, Text: text}
		rep.Samples = append(rep.Samples, bs)
		f := rep.BySource[src]
		if f == nil {
			f = &SourceFigures{ByKind: map[string]int{}}
			rep.BySource[src] = f
		}
		for _, fig := range []*SourceFigures{f, &rep.Total} {
			fig.Samples++
			if lr.Leaked {
				fig.Leaked++
				kinds := map[string]bool{}
				for _, l := range lr.Leaks {
					kinds[l.Kind] = true
				}
				for k := range kinds {
					fig.ByKind[k]++
				}
			}
		}
	}
	for _, f := range append(mapValues(rep.BySource), &rep.Total) {
		if f.Samples > 0 {
			f.Rate = float64(f.Leaked) / float64(f.Samples)
		}
	}
	return rep, nil
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
