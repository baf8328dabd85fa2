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
	"sccg/lang"
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

// Nearest finds, for an intent, the train sample of language n whose intent is most
// similar.
type Nearest interface {
	Nearest(ctx context.Context, intent string, n lang.Name) (release.Record, bool, error)
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
	n := lang.Of(r.Language)
	switch name {
	case Gold:
		return r.Code.CompleteFunction, nil
	case Null:
		return NullFunction(n, p.FunctionName), nil
	case DocTemplate:
		var d *prompts.Doc
		if len(p.Docs) > 0 {
			d = &p.Docs[0]
		}
		return Template(n, p.FunctionName, d, p.Setting == prompts.OracleC5), nil
	default: // BM25NearestTrain
		nr, ok, err := o.Nearest.Nearest(ctx, prompts.IntentText(r), n)
		if err != nil {
			return "", fmt.Errorf("baseline %s for %s: %w", name, r.SampleID, err)
		}
		if !ok {
			return NullFunction(n, p.FunctionName), nil
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

// NullFunction is a syntactically valid function of language n with the required
// name that sends no request. Like the paper's, it imports the language's most
// common HTTP client and calls nothing, so it passes Syntax and Dep and fails
// every later stage.
func NullFunction(n lang.Name, fn string) string {
	if isJS(n) {
		return "import axios from \"axios\";\n\nasync function " + jsName(fn) + "(...args) {\n  return null;\n}\n"
	}
	return "import requests\n\n\ndef " + fn + "(*args, **kwargs):\n    return None\n"
}

// isJS reports a language doc-template and null write JavaScript for (TypeScript
// accepts the same code).
func isJS(n lang.Name) bool { return n == lang.JavaScript || n == lang.TypeScript }

// jsName is the function name a JavaScript baseline declares: a method's own
// name when the sample's function is Class.method (the sandbox calls any
// definition of that name).
func jsName(fn string) string {
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	if fn == "" || fn == "default" {
		return "main"
	}
	return fn
}

// placeholderHost is where doc-template sends a request when the prompt documents
// nothing: a reserved name no benchmark API uses.
const placeholderHost = "api.example.com"

// Template writes a request of language n to the documented endpoint: its URL with
// every path parameter filled from its example, the documented headers, query
// parameters and body, a placeholder key, the documented method — with requests in
// Python, with fetch in JavaScript and TypeScript. With no documentation it calls a
// placeholder host. robust adds a status check and exception handling (the C5
// constraints).
func Template(n lang.Name, fn string, d *prompts.Doc, robust bool) string {
	q := plan(d)
	if isJS(n) {
		return q.fetch(jsName(fn), robust)
	}
	return q.requests(fn, robust)
}

// request is what doc-template sends, whatever language it writes it in.
type request struct {
	method, url    string
	headers, query map[string]string
	// body holds the documented body parameters; json the documented example
	// body when there are none ("" when none either). Neither for GET, HEAD and
	// DELETE.
	body map[string]string
	json string
}

// plan reads the request off the documentation.
func plan(d *prompts.Doc) request {
	if d == nil {
		d = &prompts.Doc{}
	}
	q := request{method: strings.ToUpper(d.Method), headers: map[string]string{}, query: map[string]string{}, body: map[string]string{}}
	if q.method == "" {
		q.method = "GET"
	}
	host := d.Host
	u := d.CallURL()
	if u == "" {
		host, u = placeholderHost, "https://"+placeholderHost+"/"
	}
	q.url = fillPath(u, d.Params)
	for k, v := range d.Headers {
		q.headers[k] = v
	}
	for _, p := range d.Params {
		switch strings.ToLower(p.Location) {
		case "path":
		case "header":
			if !hasKey(q.headers, p.Name) {
				q.headers[p.Name] = headerValue(p)
			}
		case "body", "form":
			q.body[p.Name] = exampleOf(p)
		default:
			q.query[p.Name] = exampleOf(p)
		}
	}
	if strings.HasSuffix(host, ".rapidapi.com") {
		if !hasKey(q.headers, "x-rapidapi-host") {
			q.headers["X-RapidAPI-Host"] = host
		}
		if !hasKey(q.headers, "x-rapidapi-key") {
			q.headers["X-RapidAPI-Key"] = "YOUR_RAPIDAPI_KEY"
		}
	}
	if q.method == "GET" || q.method == "HEAD" || q.method == "DELETE" {
		q.body = map[string]string{}
	} else if len(q.body) == 0 && d.Body != "" && json.Valid([]byte(d.Body)) {
		q.json = d.Body
	}
	return q
}

// requests writes q as a Python function calling requests.
func (q request) requests(fn string, robust bool) string {
	var b strings.Builder
	b.WriteString("import requests\n\n\ndef " + fn + "(*args, **kwargs):\n")
	b.WriteString("    url = " + strconv.Quote(q.url) + "\n")
	b.WriteString("    headers = " + pyDict(q.headers) + "\n")
	args := "url, headers=headers"
	if len(q.query) > 0 {
		b.WriteString("    params = " + pyDict(q.query) + "\n")
		args += ", params=params"
	}
	switch {
	case len(q.body) > 0:
		b.WriteString("    payload = " + pyDict(q.body) + "\n")
		args += ", json=payload"
	case q.json != "":
		if lit, ok := pyJSON(q.json); ok {
			b.WriteString("    payload = " + lit + "\n")
			args += ", json=payload"
		}
	}
	call := "requests." + strings.ToLower(q.method) + "(" + args + ")"
	switch q.method {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
	default:
		call = "requests.request(" + strconv.Quote(q.method) + ", " + args + ")"
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

// fetch writes q as an async JavaScript function calling the global fetch.
func (q request) fetch(fn string, robust bool) string {
	var b strings.Builder
	in := "  "
	b.WriteString("async function " + fn + "(...args) {\n")
	if robust {
		b.WriteString("  try {\n")
		in = "    "
	}
	b.WriteString(in + "const url = new URL(" + strconv.Quote(q.url) + ");\n")
	if len(q.query) > 0 {
		b.WriteString(in + "const params = " + pyDict(q.query) + ";\n")
		b.WriteString(in + "for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);\n")
	}
	headers := maps.Clone(q.headers)
	body := ""
	switch {
	case len(q.body) > 0:
		body = pyDict(q.body)
	case q.json != "":
		body = q.json
	}
	if body != "" && !hasKey(headers, "content-type") {
		headers["Content-Type"] = "application/json"
	}
	b.WriteString(in + "const headers = " + pyDict(headers) + ";\n")
	opts := "{ method: " + strconv.Quote(q.method) + ", headers"
	if body != "" {
		b.WriteString(in + "const payload = " + body + ";\n")
		opts += ", body: JSON.stringify(payload)"
	}
	opts += " }"
	b.WriteString(in + "const response = await fetch(url, " + opts + ");\n")
	if robust {
		b.WriteString(in + "if (!response.ok) {\n" + in + "  return null;\n" + in + "}\n")
		b.WriteString(in + "return await response.json();\n")
		b.WriteString("  } catch (error) {\n    return null;\n  }\n")
	} else {
		b.WriteString(in + "return response.json();\n")
	}
	b.WriteString("}\n")
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

// pyDict is a Python dict literal of string keys and values, sorted by key (also
// a JavaScript object literal).
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
// retrievers' own) over the intents of the train split, one index per language, so
// a sample is answered with code of its own language.
type NearestTrain struct {
	byLang map[lang.Name]*trainIndex
	n      int
}

// trainIndex is one language's train records and their intents' index.
type trainIndex struct {
	train []release.Record
	ix    *retrieve.BM25
}

// NewNearestTrain indexes the intents of the train records that have one.
func NewNearestTrain(train []release.Record) (*NearestTrain, error) {
	texts := map[lang.Name][]string{}
	n := &NearestTrain{byLang: map[lang.Name]*trainIndex{}}
	for _, r := range train {
		if t := prompts.IntentText(r); t != "" && r.Code.CompleteFunction != "" {
			l := lang.Of(r.Language)
			if n.byLang[l] == nil {
				n.byLang[l] = &trainIndex{}
			}
			n.byLang[l].train = append(n.byLang[l].train, r)
			texts[l] = append(texts[l], t)
			n.n++
		}
	}
	if n.n == 0 {
		return nil, fmt.Errorf("baseline %s: no train sample has an intent", BM25NearestTrain)
	}
	for l, ts := range texts {
		n.byLang[l].ix = retrieve.NewTextIndex(ts, retrieve.DefaultBM25)
	}
	return n, nil
}

// Nearest returns the train record of language l whose intent scores best for
// intent; ok is false when none shares a term with it (or the train split has no
// sample of l).
func (n *NearestTrain) Nearest(ctx context.Context, intent string, l lang.Name) (release.Record, bool, error) {
	t := n.byLang[l]
	if t == nil {
		return release.Record{}, false, nil
	}
	hits, err := t.ix.Retrieve(ctx, intent, 1)
	if err != nil || len(hits) == 0 {
		return release.Record{}, false, err
	}
	return t.train[hits[0].Doc], true, nil
}

// Len is how many train intents are indexed.
func (n *NearestTrain) Len() int { return n.n }
