// Package prompts builds the generation prompts of the experiments (paper §IV-B):
// for each sample of a benchmark in the published format, the chat messages of one
// setting — the intent only (C0), the top-K endpoint documents a retriever returns
// (RAG), or the gold endpoint's documentation (the oracle settings C3, C5 and the
// ablations C1, C2, C4) — or of the endpoint-selection task. Prompts are JSONL, one
// per sample, with the documents they give beside the messages, so a non-neural
// baseline can read exactly what a model was given.
package prompts

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sccg/lang"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/retrieve"
	"sccg/leakcheck"
	"sccg/llm"
	"sccg/release"
)

// The settings.
const (
	Intent     = "intent"      // C0: the intent and the function name only
	RAGBM25    = "rag-bm25"    // the top-K documents BM25 retrieves for the intent
	RAGDense   = "rag-dense"   // … a dense retriever
	RAGHybrid  = "rag-hybrid"  // … BM25 and dense fused
	RAGLearned = "rag-learned" // … the learned ranker (retrieve.NameLearned)
	C1         = "c1"          // the gold endpoint's host only
	C2         = "c2"          // host, URL, route and method
	OracleC3   = "oracle-c3"   // the gold endpoint's documentation
	C4         = "c4"          // C3 and a dependency constraint
	OracleC5   = "oracle-c5"   // C3 and status-checking and try/except constraints
)

// Settings lists every setting in staircase order.
var Settings = []string{Intent, RAGBM25, RAGLearned, RAGDense, RAGHybrid, C1, C2, OracleC3, C4, OracleC5}

// The tasks.
const (
	TaskGenerate = "generate"        // write the function
	TaskSelect   = "select-endpoint" // pick the target among same-API endpoints
)

// NormalizeSetting maps a setting's spellings (c0, c3, c5, rag_bm25, …) to its name.
func NormalizeSetting(s string) (string, error) {
	n := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
	switch n {
	case "c0", "intent-only":
		return Intent, nil
	case "c3", "oracle":
		return OracleC3, nil
	case "c5":
		return OracleC5, nil
	case "bm25":
		return RAGBM25, nil
	case "dense":
		return RAGDense, nil
	case "hybrid":
		return RAGHybrid, nil
	case "learned":
		return RAGLearned, nil
	}
	if slices.Contains(Settings, n) {
		return n, nil
	}
	return "", fmt.Errorf("unknown setting %q (want one of %s)", s, strings.Join(Settings, ", "))
}

// IsRAG reports whether a setting gives retrieved documents.
func IsRAG(setting string) bool {
	return setting == RAGBM25 || setting == RAGDense || setting == RAGHybrid || setting == RAGLearned
}

// RetrieverOf is the retriever (retrieve.Names) of a RAG setting.
func RetrieverOf(setting string) string { return strings.TrimPrefix(setting, "rag-") }

// NeedsGold reports whether a setting gives the gold endpoint's documentation.
func NeedsGold(setting string) bool {
	switch setting {
	case C1, C2, OracleC3, C4, OracleC5:
		return true
	}
	return false
}

// Message is one chat message, as the shared LLM client sends it.
type Message = llm.Message

// Prompt is one line of a prompts file.
type Prompt struct {
	SampleID     string `json:"sample_id"`
	Setting      string `json:"setting"`
	Task         string `json:"task"`
	FunctionName string `json:"function_name"`
	// Language is the language the prompt asks for, when not Python (the
	// sample's: javascript, typescript).
	Language   string    `json:"language,omitempty"`
	Messages   []Message `json:"messages"`
	PromptHash string    `json:"prompt_hash"`
	// Docs are the documents the messages give, best first (none for intent).
	Docs []Doc `json:"docs,omitempty"`
	// Candidates are the endpoint-selection task's choices, in the order shown.
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Candidate is one choice of the endpoint-selection task.
type Candidate struct {
	ID  string `json:"id"` // E1, E2, …
	Doc Doc    `json:"doc"`
}

// Hash is a prompt's prompt_hash: the LLM client's canonical prompt hash, so a
// prompt file and the client's cache name a prompt the same way.
func Hash(msgs []Message) string { return llm.PromptHash(msgs) }

// The shared core prompt of §IV-B: every setting but the selection task uses it.
const systemPrompt = "You are an experienced Python engineer. Write one complete, self-contained Python function " +
	"that does the task by calling a web API over HTTP. Construct the complete request (URL, HTTP method, headers " +
	"and parameters) from the context available. Use placeholder values such as \"YOUR_API_KEY\" for API keys and " +
	"other credentials, never real ones. Answer with the code only: no explanations and no Markdown code fences."

const selectSystemPrompt = "You are an experienced Python engineer choosing the API endpoint that does a task. " +
	"Rank the candidate endpoints from best to worst for the task. Answer with JSON only, in the form " +
	"{\"ranking\": [\"E2\", \"E1\", ...]}, listing candidate ids and nothing else."

// systemPromptFor is the core prompt asking for code in language n: Python's as the
// paper words it, the same words for JavaScript and TypeScript.
func systemPromptFor(n lang.Name) string {
	switch n {
	case lang.JavaScript:
		return strings.ReplaceAll(systemPrompt, "Python", "JavaScript")
	case lang.TypeScript:
		return strings.ReplaceAll(systemPrompt, "Python", "TypeScript")
	}
	return systemPrompt
}

// constraintsFor are the extra instructions of C4 and C5 for code in language n.
func constraintsFor(n lang.Name, setting string) []string {
	if n == lang.JavaScript || n == lang.TypeScript {
		return jsConstraints[setting]
	}
	return constraints[setting]
}

// jsConstraints are C4's and C5's instructions for JavaScript and TypeScript.
var jsConstraints = map[string][]string{
	C4: {"Use only the global fetch API and Node's built-in modules: import no npm package."},
	OracleC5: {
		"Check the HTTP status of the response (response.ok or response.status) before using its body.",
		"Wrap the request in try/catch and handle the errors a request can raise.",
	},
}

// constraints are the extra instructions of C4 and C5 for Python.
var constraints = map[string][]string{
	C4: {"Import only the requests library and modules of the Python standard library."},
	OracleC5: {
		"Check the HTTP status code of the response before using its body.",
		"Wrap the request in try/except and handle the exceptions a request can raise.",
	},
}

// IntentText is a record's intent: the text of its comments, each on its own line,
// without repeats.
func IntentText(r release.Record) string {
	var lines []string
	for _, c := range r.Comments {
		t := strings.TrimSpace(c.Text)
		if t != "" && !slices.Contains(lines, t) {
			lines = append(lines, t)
		}
	}
	return strings.Join(lines, "\n")
}

// LeakChecker checks an intent-only prompt against its sample's ground truth: it
// returns what the text gives away (host, API name, route, parameter keys), or ""
// when the text is clean.
type LeakChecker interface {
	Leak(ctx context.Context, r *release.Record, text string) (string, error)
}

// LeakCheck is the LeakChecker the intent setting uses by default: package
// leakcheck's check of the prompt against the record's ground truth (its host and
// names, URL, route, parameter keys and the literal values its own code sends).
var LeakCheck LeakChecker = LeakFunc(func(ctx context.Context, r *release.Record, text string) (string, error) {
	g, err := leakcheck.RecordTruth(ctx, r)
	if err != nil {
		return "", err
	}
	if rep := leakcheck.LeakCheck(text, g); rep.Leaked {
		return rep.String(), nil
	}
	return "", nil
})

// LeakFunc is a function that is a LeakChecker.
type LeakFunc func(ctx context.Context, r *release.Record, text string) (string, error)

// Leak calls f.
func (f LeakFunc) Leak(ctx context.Context, r *release.Record, text string) (string, error) {
	return f(ctx, r, text)
}

// DefaultK is how many retrieved documents a RAG prompt gives.
const DefaultK = 5

// DefaultCandidates is how many endpoints the selection task shows at most.
const DefaultCandidates = 10

// Options configure Build.
type Options struct {
	Setting string
	Task    string // TaskGenerate (default) or TaskSelect
	// Catalog is the documentation: the gold endpoint's doc and, for the selection
	// task, the same-API distractors. Nil: the records' own api_metadata.
	Catalog *Catalog
	// Retriever serves the RAG settings from Corpus, K documents a prompt
	// (default DefaultK).
	Retriever retrieve.Retriever
	Corpus    *retrieve.Corpus
	K         int
	// Leaks checks every prompt of the intent setting (default LeakCheck).
	Leaks LeakChecker
	// DropLeaks leaves leaking prompts out (each reported) instead of failing.
	DropLeaks bool
	// Candidates bounds the selection task's choices (default DefaultCandidates).
	Candidates int
	// IntentOf, when set, gives each record's intent instead of its comments (the
	// contamination test prompts the same samples with two intents); "" is none.
	IntentOf func(release.Record) string
	// Label, when set, is the setting name the prompts carry instead of Setting's.
	Label string
}

func (o Options) withDefaults() (Options, error) {
	switch o.Task {
	case "":
		o.Task = TaskGenerate
	case TaskGenerate, TaskSelect:
	default:
		return o, fmt.Errorf("unknown task %q (want %s or %s)", o.Task, TaskGenerate, TaskSelect)
	}
	if o.Task == TaskSelect {
		// the candidates are the context: the task is its own setting
		o.Setting = TaskSelect
	} else {
		s, err := NormalizeSetting(o.Setting)
		if err != nil {
			return o, err
		}
		o.Setting = s
	}
	if o.K <= 0 {
		o.K = DefaultK
	}
	if o.Candidates <= 1 {
		o.Candidates = DefaultCandidates
	}
	if IsRAG(o.Setting) && (o.Retriever == nil || o.Corpus == nil) {
		return o, fmt.Errorf("setting %s needs a retriever and its corpus", o.Setting)
	}
	if o.Leaks == nil {
		o.Leaks = LeakCheck
	}
	return o, nil
}

// RunArgs are the options as a run records them.
func (o Options) RunArgs() map[string]any {
	src := ""
	if o.Catalog != nil {
		src = o.Catalog.Source
	}
	return map[string]any{"setting": o.Setting, "task": o.Task, "k": o.K, "docs": src, "drop_leaks": o.DropLeaks,
		"candidates": o.Candidates}
}

// Problem is a sample that got no prompt, or a prompt short of what its setting
// wants, and why.
type Problem struct {
	SampleID string `json:"sample_id"`
	Setting  string `json:"setting"`
	Kind     string `json:"kind"` // one of the Problem kinds
	Reason   string `json:"reason"`
	// Skipped is true when the sample got no prompt.
	Skipped bool `json:"skipped"`
}

// Problem kinds.
const (
	ProblemNoIntent     = "no_intent"     // the sample has no comment to use as intent
	ProblemNoDocs       = "no_docs"       // its gold endpoint is not documented
	ProblemNoFunction   = "no_function"   // it names no function
	ProblemLeak         = "leak"          // its intent-only prompt gives the ground truth away
	ProblemNoDistractor = "no_distractor" // its API documents no other endpoint
)

// Output is what Build produces.
type Output struct {
	Prompts  []Prompt  `json:"-"`
	Problems []Problem `json:"problems"`
}

// Counts are the output's figures.
func (o *Output) Counts() map[string]int64 {
	c := map[string]int64{"prompts": int64(len(o.Prompts))}
	for _, p := range o.Problems {
		c[p.Kind]++
		if p.Skipped {
			c["skipped"]++
		}
	}
	return c
}

// LeakError is Build's error when intent-only prompts leak and DropLeaks is off.
type LeakError struct {
	Leaks []Problem
}

func (e *LeakError) Error() string {
	first := e.Leaks[0]
	return fmt.Sprintf("%d intent-only prompt(s) leak the ground truth (first: %s: %s); the benchmark's intents are not leak-free: "+
		"leave them out with --drop-leaks (sccg prompts, baseline) or drop_leaks: true (a grid file)",
		len(e.Leaks), first.SampleID, first.Reason)
}

// Build writes the prompts of one setting for recs, in their order. Samples that
// cannot get a faithful prompt are reported in Problems: no function name, no
// intent for the intent-only setting, no documentation of the gold endpoint for
// an oracle setting, no distractor for the selection task. A sample without an
// intent still gets a documentation prompt (reported): the documentation then
// says what to call. Under the intent setting every prompt goes through LeakCheck;
// a leak fails the build (a *LeakError) unless DropLeaks leaves it out.
func Build(ctx context.Context, recs []release.Record, o Options) (*Output, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	cat := o.Catalog
	if cat == nil {
		cat = CatalogFromRecords(recs)
	}
	intentOf := IntentText
	if o.IntentOf != nil {
		intentOf = o.IntentOf
	}
	label := o.Setting
	if o.Label != "" {
		label = o.Label
	}
	out := &Output{}
	problem := func(r release.Record, kind, reason string, skipped bool) {
		out.Problems = append(out.Problems, Problem{SampleID: r.SampleID, Setting: label, Kind: kind, Reason: reason, Skipped: skipped})
	}
	var leaks []Problem
	if pr, ok := o.Retriever.(retrieve.Preparer); ok && IsRAG(o.Setting) {
		// embed every query in batches before they are asked one by one
		var qs []string
		for _, r := range recs {
			if q := intentOf(r); q != "" {
				qs = append(qs, q)
			}
		}
		if err := pr.Prepare(ctx, qs); err != nil {
			return nil, fmt.Errorf("prompts %s: %w", o.Setting, err)
		}
	}
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if strings.TrimSpace(r.FunctionName) == "" {
			problem(r, ProblemNoFunction, "the sample names no function to write", true)
			continue
		}
		intent := intentOf(r)
		if intent == "" && (o.Setting == Intent || IsRAG(o.Setting) || o.Task == TaskSelect) {
			problem(r, ProblemNoIntent, fmt.Sprintf("no comment to use as intent (comments_source %q)", r.CommentsSource), true)
			continue
		}
		p := Prompt{SampleID: r.SampleID, Setting: label, Task: o.Task, FunctionName: r.FunctionName}
		if n := lang.Of(r.Language); n != lang.Python {
			p.Language = string(n)
		}
		var gold Doc
		var rendered []string // the RAG documents as the retriever's corpus renders them
		if NeedsGold(o.Setting) || o.Task == TaskSelect {
			var ok bool
			if gold, ok = goldDoc(cat, r); !ok {
				problem(r, ProblemNoDocs, "the gold endpoint is not documented ("+docMissing(r)+")", true)
				continue
			}
		}
		if o.Task == TaskSelect {
			cands := candidates(cat, r, gold, o.Candidates)
			if len(cands) < 2 {
				problem(r, ProblemNoDistractor, "its API documents no other endpoint to choose from", true)
				continue
			}
			p.Candidates = cands
			p.Messages = selectMessages(intent, r.FunctionName, cands)
		} else {
			switch {
			case NeedsGold(o.Setting):
				p.Docs = []Doc{view(o.Setting, gold)}
			case IsRAG(o.Setting):
				hits, err := o.Retriever.Retrieve(ctx, intent, o.K)
				if err != nil {
					return nil, fmt.Errorf("prompts %s: retrieve for %s: %w", o.Setting, r.SampleID, err)
				}
				for _, h := range hits {
					d := &o.Corpus.Docs[h.Doc]
					p.Docs = append(p.Docs, RetrievedDoc(d))
					rendered = append(rendered, d.Render())
				}
			}
			if intent == "" {
				problem(r, ProblemNoIntent, fmt.Sprintf("no comment to use as intent (comments_source %q): the prompt gives the documentation and the function name only", r.CommentsSource), false)
			}
			p.Messages = generateMessages(lang.Of(r.Language), o.Setting, intent, r.FunctionName, p.Docs, rendered)
		}
		if o.Setting == Intent && o.Task == TaskGenerate {
			leak, err := o.Leaks.Leak(ctx, &r, p.Messages[len(p.Messages)-1].Content)
			if err != nil {
				return nil, fmt.Errorf("prompts: leak check of %s: %w", r.SampleID, err)
			}
			if leak != "" {
				lp := Problem{SampleID: r.SampleID, Setting: label, Kind: ProblemLeak, Reason: leak, Skipped: true}
				leaks = append(leaks, lp)
				out.Problems = append(out.Problems, lp)
				continue
			}
		}
		p.PromptHash = Hash(p.Messages)
		out.Prompts = append(out.Prompts, p)
	}
	if len(leaks) > 0 && !o.DropLeaks {
		return out, &LeakError{Leaks: leaks}
	}
	return out, nil
}

// goldDoc is the gold endpoint's documentation: from the catalog when it documents
// the endpoint, else from the record's own api_metadata.
func goldDoc(cat *Catalog, r release.Record) (Doc, bool) {
	if d, ok := cat.Gold(r); ok {
		return d, true
	}
	return RecordDoc(r)
}

// docMissing says why a record has no gold documentation.
func docMissing(r release.Record) string {
	m := r.APIMetadata
	var src string
	if raw, ok := m.Extra["endpoint_source"]; ok {
		json.Unmarshal(raw, &src)
	}
	switch {
	case src != "" && src != "documented":
		return "endpoint_source " + src
	case m.Route == "" && m.URL == "":
		return "doc_match_type " + m.DocMatchType + " without a route"
	default:
		return "no endpoint_id or endpoint_name"
	}
}

// view is what a setting shows of the gold doc.
func view(setting string, d Doc) Doc {
	switch setting {
	case C1:
		return Doc{Host: d.Host}
	case C2:
		return Doc{Host: d.Host, URL: d.URL, Method: d.Method, Route: d.Route}
	}
	return d
}

// generateMessages are the chat messages of a code-writing prompt; rendered are the
// RAG documents' text.
func generateMessages(n lang.Name, setting, intent, fn string, docs []Doc, rendered []string) []Message {
	var b strings.Builder
	if intent != "" {
		b.WriteString("Task:\n" + intent + "\n\n")
	} else {
		b.WriteString("Task:\nCall the endpoint documented below and return the data of its response.\n\n")
	}
	b.WriteString("Function name: " + fn + "\n")
	switch {
	case IsRAG(setting) && len(rendered) > 0:
		b.WriteString("\nRetrieved API documentation (the most relevant first; not every document needs to be relevant):\n")
		for i, text := range rendered {
			fmt.Fprintf(&b, "\n[%d]\n%s", i+1, text)
		}
	case IsRAG(setting):
		b.WriteString("\nRetrieved API documentation: none.\n")
	case len(docs) > 0:
		b.WriteString("\nAPI documentation:\n" + Render(docs[0]))
	}
	if cs := constraintsFor(n, setting); len(cs) > 0 {
		b.WriteString("\nConstraints:\n")
		for _, c := range cs {
			b.WriteString("- " + c + "\n")
		}
	}
	return []Message{{Role: "system", Content: systemPromptFor(n)}, {Role: "user", Content: strings.TrimRight(b.String(), "\n")}}
}

// Render is a doc as the prompts show it: one field a line, the parameters listed.
func Render(d Doc) string {
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	line("Endpoint", d.Name)
	line("API", d.API)
	line("Host", d.Host)
	line("URL", d.URL)
	line("Method", d.Method)
	line("Route", d.Route)
	line("Description", oneLine(d.Description))
	if len(d.Headers) > 0 {
		var hs []string
		for _, k := range slices.Sorted(maps.Keys(d.Headers)) {
			hs = append(hs, k+": "+d.Headers[k])
		}
		line("Headers", strings.Join(hs, "; "))
	}
	if len(d.Params) > 0 {
		b.WriteString("Parameters:\n")
		for _, p := range d.Params {
			attrs := []string{p.Location}
			if p.Type != "" {
				attrs = append(attrs, p.Type)
			}
			if p.Required {
				attrs = append(attrs, "required")
			}
			fmt.Fprintf(&b, "- %s (%s)", p.Name, strings.Join(attrs, ", "))
			if p.Description != "" {
				b.WriteString(": " + oneLine(p.Description))
			}
			if p.Example != "" {
				b.WriteString(" Example: " + oneLine(p.Example))
			}
			b.WriteString("\n")
		}
	}
	line("Body example", oneLine(d.Body))
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Shown is what each prompt showed, by evaluate.ShownKey(setting, sample_id),
// as the evaluator attributes the completions that answer them
// (evaluate.Config.Shown): its documents, and whether a retriever chose them (a
// RAG setting). Endpoint-selection prompts show candidates, not documents to
// call, and are left out.
func Shown(ps []Prompt) map[string]evaluate.Shown {
	out := make(map[string]evaluate.Shown, len(ps))
	for _, p := range ps {
		if p.Task == TaskSelect {
			continue
		}
		sh := evaluate.Shown{Docs: []evaluate.ShownDoc{}, Retrieved: IsRAG(p.Setting)}
		for _, d := range p.Docs {
			sh.Docs = append(sh.Docs, evaluate.ShownDoc{Key: d.Key, Host: d.Host, Method: d.Method, Route: d.Route})
		}
		out[evaluate.ShownKey(p.Setting, p.SampleID)] = sh
	}
	return out
}
