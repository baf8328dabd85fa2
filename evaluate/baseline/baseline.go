// Package baseline writes the generations of the baselines that need no model:
// gold (each sample's own code: the ceiling of the evaluator), null (a valid
// function that requests nothing: the floor), doc-template (a non-neural generator
// that writes the request from whatever documentation the prompt gives, measuring
// what grounding alone achieves) and bm25-nearest-train (the paper's: the real code
// of the train sample whose intent is most similar). Each reads the prompts of one
// setting, so a baseline answers exactly the samples a model would.
package baseline

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/evaluate/retrieve"
	"sccg/release"
)

// The baselines.
const (
	Gold             = "gold"
	Null             = "null"
	DocTemplate      = "doc-template"
	BM25NearestTrain = "bm25-nearest-train"
)

// Names lists the baselines.
var Names = []string{Gold, Null, DocTemplate, BM25NearestTrain}

// Nearest finds, for an intent, the train sample whose intent is most similar.
type Nearest interface {
	Nearest(ctx context.Context, intent string) (release.Record, bool, error)
}

// Options configure Generate.
type Options struct {
	// Nearest serves bm25-nearest-train.
	Nearest Nearest
}

// Generate writes baseline name's generations for the prompts: one per prompt,
// with the prompt's setting, the baseline's name as model and sample_index 0.
// bench holds the prompted samples' records.
func Generate(ctx context.Context, name string, bench []release.Record, ps []prompts.Prompt, o Options) ([]evaluate.Generation, error) {
	if !slices.Contains(Names, name) {
		return nil, fmt.Errorf("unknown baseline %q (want one of %s)", name, strings.Join(Names, ", "))
	}
	if name == BM25NearestTrain && o.Nearest == nil {
		return nil, fmt.Errorf("baseline %s needs the train split's intents", name)
	}
	recs := map[string]release.Record{}
	for _, r := range bench {
		recs[r.SampleID] = r
	}
	out := make([]evaluate.Generation, 0, len(ps))
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, ok := recs[p.SampleID]
		if !ok {
			return nil, fmt.Errorf("baseline %s: prompt for %s, which the benchmark does not hold", name, p.SampleID)
		}
		var text string
		var err error
		if p.Task == prompts.TaskSelect {
			text, err = selectAnswer(name, r, p)
		} else {
			text, err = code(ctx, name, r, p, o)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, evaluate.Generation{SampleID: p.SampleID, Setting: p.Setting, Model: name, Completion: text})
	}
	return out, nil
}

func code(ctx context.Context, name string, r release.Record, p prompts.Prompt, o Options) (string, error) {
	switch name {
	case Gold:
		return r.Code.CompleteFunction, nil
	case Null:
		return NullFunction(p.FunctionName), nil
	case DocTemplate:
		var d *prompts.Doc
		if len(p.Docs) > 0 {
			d = &p.Docs[0]
		}
		return Template(p.FunctionName, d, p.Setting == prompts.OracleC5), nil
	default: // BM25NearestTrain
		nr, ok, err := o.Nearest.Nearest(ctx, prompts.IntentText(r))
		if err != nil {
			return "", fmt.Errorf("baseline %s for %s: %w", name, r.SampleID, err)
		}
		if !ok {
			return NullFunction(p.FunctionName), nil
		}
		return nr.Code.CompleteFunction, nil
	}
}

// selectAnswer is a baseline's answer to the endpoint-selection task: gold ranks
// the gold candidate first, null ranks nothing, doc-template keeps the order shown
// (chance); bm25-nearest-train does not choose.
func selectAnswer(name string, r release.Record, p prompts.Prompt) (string, error) {
	var ids []string
	switch name {
	case Gold:
		id, ok := prompts.GoldCandidate(r, p)
		if !ok {
			return "", fmt.Errorf("baseline gold: no candidate of %s documents its ground truth", r.SampleID)
		}
		ids = []string{id}
	case Null:
		ids = []string{}
	case DocTemplate:
		for _, c := range p.Candidates {
			ids = append(ids, c.ID)
		}
	default:
		return "", fmt.Errorf("baseline %s does not do the %s task", name, prompts.TaskSelect)
	}
	b, err := json.Marshal(map[string][]string{"ranking": ids})
	return string(b), err
}

// NullFunction is a syntactically valid function with the required name that
// sends no request.
func NullFunction(fn string) string {
	return "import requests\n\n\ndef " + fn + "(*args, **kwargs):\n    return None\n"
}

// placeholderHost is where doc-template sends a request when the prompt documents
// nothing: a reserved name no benchmark API uses.
const placeholderHost = "api.example.com"

// Template writes a request to the documented endpoint: its URL with every path
// parameter filled from its example, the documented headers, query parameters and
// body, a placeholder key, the documented method. With no documentation it calls a
// placeholder host. robust adds a status check and exception handling (the C5
// constraints).
func Template(fn string, d *prompts.Doc, robust bool) string {
	if d == nil {
		d = &prompts.Doc{}
	}
	method := strings.ToUpper(d.Method)
	if method == "" {
		method = "GET"
	}
	host := d.Host
	u := d.CallURL()
	if u == "" {
		host, u = placeholderHost, "https://"+placeholderHost+"/"
	}
	u = fillPath(u, d.Params)
	headers := map[string]string{}
	for k, v := range d.Headers {
		headers[k] = v
	}
	query, body := map[string]string{}, map[string]string{}
	for _, p := range d.Params {
		switch strings.ToLower(p.Location) {
		case "path":
		case "header":
			if !hasKey(headers, p.Name) {
				headers[p.Name] = headerValue(p)
			}
		case "body", "form":
			body[p.Name] = exampleOf(p)
		default:
			query[p.Name] = exampleOf(p)
		}
	}
	if strings.HasSuffix(host, ".rapidapi.com") {
		if !hasKey(headers, "x-rapidapi-host") {
			headers["X-RapidAPI-Host"] = host
		}
		if !hasKey(headers, "x-rapidapi-key") {
			headers["X-RapidAPI-Key"] = "YOUR_RAPIDAPI_KEY"
		}
	}
	var b strings.Builder
	b.WriteString("import requests\n\n\ndef " + fn + "(*args, **kwargs):\n")
	b.WriteString("    url = " + strconv.Quote(u) + "\n")
	b.WriteString("    headers = " + pyDict(headers) + "\n")
	args := "url, headers=headers"
	if len(query) > 0 {
		b.WriteString("    params = " + pyDict(query) + "\n")
		args += ", params=params"
	}
	withBody := method != "GET" && method != "HEAD" && method != "DELETE"
	if withBody {
		switch {
		case len(body) > 0:
			b.WriteString("    payload = " + pyDict(body) + "\n")
			args += ", json=payload"
		case d.Body != "":
			if lit, ok := pyJSON(d.Body); ok {
				b.WriteString("    payload = " + lit + "\n")
				args += ", json=payload"
			}
		}
	}
	call := "requests." + strings.ToLower(method) + "(" + args + ")"
	switch method {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
	default:
		call = "requests.request(" + strconv.Quote(method) + ", " + args + ")"
	}
	if robust {
		b.WriteString("    try:\n")
		b.WriteString("        response = " + call + "\n")
		b.WriteString("        if response.status_code != 200:\n")
		b.WriteString("            return None\n")
		b.WriteString("        return response.json()\n")
		b.WriteString("    except requests.exceptions.RequestException:\n")
		b.WriteString("        return None\n")
	} else {
		b.WriteString("    response = " + call + "\n")
		b.WriteString("    return response.json()\n")
	}
	return b.String()
}

// fillPath puts every {param} of the URL's path to its example (or a stand-in).
func fillPath(u string, ps []prompts.Param) string {
	examples := map[string]string{}
	for _, p := range ps {
		if strings.EqualFold(p.Location, "path") && p.Example != "" {
			examples[p.Name] = p.Example
		}
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(u, '{')
		if open < 0 {
			break
		}
		closing := strings.IndexByte(u[open:], '}')
		if closing < 0 {
			break
		}
		name := u[open+1 : open+closing]
		v := examples[name]
		if v == "" {
			v = "1"
		}
		b.WriteString(u[:open] + url.PathEscape(v))
		u = u[open+closing+1:]
	}
	b.WriteString(u)
	return b.String()
}

func hasKey(m map[string]string, k string) bool {
	for x := range m {
		if strings.EqualFold(x, k) {
			return true
		}
	}
	return false
}

func exampleOf(p prompts.Param) string {
	if p.Example != "" {
		return p.Example
	}
	return "example"
}

func headerValue(p prompts.Param) string {
	n := strings.ToLower(p.Name)
	if strings.Contains(n, "key") || strings.Contains(n, "token") || strings.Contains(n, "auth") {
		return "YOUR_API_KEY"
	}
	return exampleOf(p)
}

// pyDict is a Python dict literal of string keys and values, sorted by key.
func pyDict(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, strconv.Quote(k)+": "+strconv.Quote(m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// pyJSON turns a JSON document into a Python literal.
func pyJSON(s string) (string, bool) {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return "", false
	}
	return pyValue(v), true
}

func pyValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, strconv.Quote(k)+": "+pyValue(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "None"
}

// NearestTrain is the paper's retrieval baseline's index: Okapi BM25 (the
// retrievers' own) over the intents of the train split.
type NearestTrain struct {
	train []release.Record
	ix    *retrieve.BM25
}

// NewNearestTrain indexes the intents of the train records that have one.
func NewNearestTrain(train []release.Record) (*NearestTrain, error) {
	n := &NearestTrain{}
	var texts []string
	for _, r := range train {
		if t := prompts.IntentText(r); t != "" && r.Code.CompleteFunction != "" {
			n.train = append(n.train, r)
			texts = append(texts, t)
		}
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("baseline %s: no train sample has an intent", BM25NearestTrain)
	}
	n.ix = retrieve.NewTextIndex(texts, retrieve.DefaultBM25)
	return n, nil
}

// Nearest returns the train record whose intent scores best for intent; ok is
// false when none shares a term with it.
func (n *NearestTrain) Nearest(ctx context.Context, intent string) (release.Record, bool, error) {
	hits, err := n.ix.Retrieve(ctx, intent, 1)
	if err != nil || len(hits) == 0 {
		return release.Record{}, false, err
	}
	return n.train[hits[0].Doc], true, nil
}

// Len is how many train intents are indexed.
func (n *NearestTrain) Len() int { return len(n.train) }
