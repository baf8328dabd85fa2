package evaluate

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sccg/evaluate/answer"
	"sccg/evaluate/metrics"
	"sccg/evaluate/sandbox"
	"sccg/internal/progress"
	"sccg/internal/workpool"
	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/release"
	"sccg/secrets"
)

// Generation is one completion to score, one line of a generations JSONL file.
type Generation struct {
	SampleID    string `json:"sample_id"`
	Setting     string `json:"setting"`
	Model       string `json:"model"`
	SampleIndex int    `json:"sample_index"`
	Completion  string `json:"completion"`
	// FinishReason is why the model stopped, when it did not simply stop
	// ("length": cut at the token limit).
	FinishReason string `json:"finish_reason,omitempty"`
	// Reasoning is the reasoning the server returned beside the completion
	// (reasoning_content); it is never scored as code.
	Reasoning string `json:"reasoning,omitempty"`
}

// Truncated reports whether the model was cut off at its token limit.
func (g Generation) Truncated() bool { return g.FinishReason == "length" }

// Key names a generation uniquely.
func (g Generation) Key() string {
	return fmt.Sprintf("%s\x1f%s\x1f%s\x1f%d", g.Setting, g.Model, g.SampleID, g.SampleIndex)
}

// ReadGenerations reads a generations JSONL file. A malformed line does not stop
// the read: it is returned as a problem naming the file and line.
func ReadGenerations(path string) ([]Generation, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read generations: %w", err)
	}
	defer f.Close()
	return ParseGenerations(f, path)
}

// ParseGenerations reads generations JSONL from r; name is used in problems.
func ParseGenerations(r io.Reader, name string) ([]Generation, []string, error) {
	var gens []Generation
	var problems []string
	br := bufio.NewReaderSize(r, 1<<20)
	seen := map[string]int{}
	for ln := 1; ; ln++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var g Generation
			dec := json.NewDecoder(bytes.NewReader(line))
			switch derr := dec.Decode(&g); {
			case derr != nil:
				problems = append(problems, fmt.Sprintf("%s line %d: %s: %v", name, ln, notAGeneration, derr))
			case g.SampleID == "":
				problems = append(problems, fmt.Sprintf("%s line %d: %s: no sample_id", name, ln, notAGeneration))
			default:
				if prev, dup := seen[g.Key()]; dup {
					problems = append(problems, fmt.Sprintf("%s line %d: duplicate of line %d (%s %s %s #%d); the later one is ignored", name, ln, prev, g.Setting, g.Model, g.SampleID, g.SampleIndex))
					continue
				}
				seen[g.Key()] = ln
				gens = append(gens, g)
			}
		}
		if err == io.EOF {
			return gens, problems, nil
		}
		if err != nil {
			return gens, problems, fmt.Errorf("read %s: %w", name, err)
		}
	}
}

const notAGeneration = "not a generation"

// Malformed counts the problems of ParseGenerations that are lines it could not
// read as a generation (not duplicates).
func Malformed(problems []string) int {
	n := 0
	for _, p := range problems {
		if strings.Contains(p, ": "+notAGeneration+": ") {
			n++
		}
	}
	return n
}

// GoldGenerations uses every sample's own complete_function as its generation.
func GoldGenerations(bench []release.Record) []Generation {
	out := make([]Generation, 0, len(bench))
	for _, r := range bench {
		out = append(out, Generation{SampleID: r.SampleID, Setting: "gold", Model: "gold", Completion: r.Code.CompleteFunction})
	}
	return out
}

// Metrics are one completion's scores. Rates are 0 or 1 per completion.
type Metrics struct {
	Syntax      float64 `json:"syntax"`
	Dep         float64 `json:"dep"`
	Secret      float64 `json:"secret"`
	HostAcc     float64 `json:"host_acc"`
	EndpointAcc float64 `json:"endpoint_acc"`
	MethodAcc   float64 `json:"method_acc"`
	ParamF1     float64 `json:"param_f1"`
	ExecReq     float64 `json:"exec_req"`
	Mock        float64 `json:"mock"`
	Robust      float64 `json:"robust"`
	CodeBLEU    float64 `json:"codebleu"`
	ES          float64 `json:"es"`
	TokenP      float64 `json:"token_p"`
	TokenR      float64 `json:"token_r"`
	TokenF1     float64 `json:"token_f1"`
	// DepRecall is DevEval's dependency recall: the share of the gold code's
	// third-party imports (ThirdParty) that the completion imports too; 1 when the
	// gold code has none (Result.GoldDeps is then empty, and the summary leaves the
	// completion out of its dep_recall).
	DepRecall float64 `json:"dep_recall"`
}

// Failure stages, earliest first.
const (
	StageSyntax   = "syntax"
	StageRequest  = "request"
	StageHost     = "host"
	StageEndpoint = "endpoint"
	StageMethod   = "method"
	StageHit      = "hit"
)

// Stages lists the failure stages in attribution order.
var Stages = []string{StageSyntax, StageRequest, StageHost, StageEndpoint, StageMethod, StageHit}

// Result is one scored completion, one line of results.jsonl.
type Result struct {
	SampleID       string `json:"sample_id"`
	Setting        string `json:"setting"`
	Model          string `json:"model"`
	SampleIndex    int    `json:"sample_index"`
	DocMatchType   string `json:"doc_match_type"`
	CommentsSource string `json:"comments_source"`
	TimeSlice      string `json:"time_slice"`
	// TimeBasis says what TimeSlice was read from: TimeByFunction (the
	// function's first line, function_authored_at) or TimeByRepository (its
	// repository's created_at, for a record without the function's date).
	TimeBasis string `json:"time_basis,omitempty"`
	// Language is the sample's language ("python", "javascript", "typescript").
	Language string `json:"language,omitempty"`
	// HasEndpoint is false for host_only samples without an endpoint: they are scored
	// on host and method and reported apart.
	HasEndpoint  bool   `json:"has_endpoint"`
	Status       string `json:"status"`
	Reason       string `json:"reason,omitempty"`
	FailureStage string `json:"failure_stage"`
	// SyntaxError is the parser's message when the code does not parse, and
	// SyntaxLine the line of the code it points at (0 when it names none).
	SyntaxError string `json:"syntax_error,omitempty"`
	SyntaxLine  int    `json:"syntax_line,omitempty"`
	// AnswerForm is where the code was found in the model's answer (answer.Form*);
	// Reasoning is true when the answer held a reasoning block or field, Truncated
	// when the model was cut off at its token limit.
	AnswerForm string `json:"answer_form,omitempty"`
	Reasoning  bool   `json:"reasoning,omitempty"`
	Truncated  bool   `json:"truncated,omitempty"`
	Metrics
	ParamP       float64 `json:"param_p"`
	ParamR       float64 `json:"param_r"`
	ParamsSource string  `json:"params_source"`
	// GoldDeps are the gold code's third-party imports (top-level modules), from the
	// sandbox's facts of its run; DepRecall is measured on them.
	GoldDeps     []string         `json:"gold_deps"`
	CodeBLEUPart metrics.CodeBLEU `json:"codebleu_parts"`
	Requests     []Captured       `json:"requests"`
	Stubbed      []string         `json:"stubbed_modules,omitempty"`
	Undefined    []string         `json:"undefined_names,omitempty"`
	// Handed: the requests came from a function the code handed to a framework
	// stub, called as the framework would, not from the function asked for.
	Handed bool `json:"handed,omitempty"`
	// Attribution is where grounding failed, for a completion whose prompt showed
	// endpoint documents (Config.Shown): hit, retrieval_miss, selection_miss or
	// generation_miss; "" when it has none, AttributionNote then saying why.
	// AttributionNote says what the miss was; ShownRank is the gold endpoint's
	// rank among the documents shown (0: not shown).
	Attribution     string   `json:"attribution,omitempty"`
	AttributionNote string   `json:"attribution_note,omitempty"`
	ShownRank       int      `json:"shown_rank,omitempty"`
	FreeNames       []string `json:"free_names,omitempty"`
	DurationMS      float64  `json:"duration_ms"`
	// CodeBLEUStats are the pair's sufficient statistics for corpus-level CodeBLEU.
	CodeBLEUStats metrics.Stats `json:"codebleu_stats"`
	Truth         *GroundTruth  `json:"-"`
}

// Config is one evaluation run.
type Config struct {
	Bench       []release.Record
	Generations []Generation
	Workers     int // default GOMAXPROCS
	Sandbox     sandbox.Options
	TimeCutoff  string           // the date splitting time slices (function_authored_at, else created_at); default DefaultTimeCutoff
	Progress    progress.Counter // counts completions; its total is set by Run
	K           []int            // pass@k values; default 1
	// Previous are results of an earlier, interrupted run of the same evaluation:
	// their generations are not run again, and the summary still covers them.
	Previous []Result
	// OnResult is called (from one goroutine at a time) for each new result.
	OnResult func(Generation, Result) error
	// NoReuse runs every completion, even one identical to another of the same
	// sample (by default those share one run; Output.Runs counts the reuse).
	NoReuse bool
	// Expected are the sample ids every (setting, model) should cover: the split
	// evaluated. Nil means every sample of Bench.
	Expected []string
	// Runners start the runner of each language other than Python (whose runner
	// is the sandbox of Sandbox), when the evaluation has a completion of it. The
	// completions of a language with no runner are not scored: the summary counts
	// them under Unscored with the reason.
	Runners map[lang.Name]StartRunner
	// Shown is what each generation's prompt showed, by ShownKey(setting,
	// sample_id): with it, every result gets its attribution (Result.Attribution)
	// and every group counts them (Group.Attribution); a generation whose prompt
	// is not in it is counted as not attributed. Nil: no prompts were given,
	// nothing is attributed.
	Shown map[string]Shown
}

// Runner runs one completion of its language in isolation and reports what it
// tried to send; a failure of the code is a Result status, never an error.
// sandbox.Runner is Python's; evaluate/jsbox's serves JavaScript and TypeScript.
type Runner interface {
	Run(ctx context.Context, code, function string) (sandbox.Result, error)
	Close() error
}

// StartRunner starts a language's runner; the evaluation closes it.
type StartRunner func(ctx context.Context) (Runner, error)

// isolated is a runner that says how it isolates completions.
type isolated interface{ Isolation() string }

// Output is what a run produces.
type Output struct {
	Results  []Result
	Summary  Summary
	Problems []string
	// Resumed is how many results came from Config.Previous instead of the sandbox.
	Resumed int
	// Runs are what the sandbox ran for this evaluation: how many runs, how many
	// completions reused one, and where batching placed them. (Not in the summary,
	// which depends on the results alone.)
	Runs *RunCounts

	unscored map[string]int // completions not scored, by reason
}

// Counts are the output's figures as a run records them.
func (o *Output) Counts() map[string]int64 {
	c := map[string]int64{"completions": int64(len(o.Results)), "resumed": int64(o.Resumed)}
	for _, n := range o.unscored {
		c["unscored"] += int64(n)
	}
	if r := o.Runs; r != nil {
		c["runs"], c["reused"], c["batched"], c["own"] = int64(r.Runs), int64(r.Reused), r.Batched, r.Own
		c["not_tame"], c["batches_ended"], c["batched_failed"] = r.NotTame, r.Ended, r.Failed
	}
	return c
}

// sampleInfo is what every completion of one sample shares.
type sampleInfo struct {
	rec release.Record
	// fe reads the sample's language, in its code's dialect (nil when no
	// frontend reads it); runner runs it (nil when the language has none).
	fe      lang.Frontend
	dialect lang.Dialect
	runner  Runner
	truth   GroundTruth
	ref     metrics.Analysis
	slice   string
	basis   string
	once    sync.Once

	// The static scores of each distinct completion of the sample: they depend on
	// the code alone, so n samples of one completion (and the gold code scored
	// as itself) compute them once.
	mu     sync.Mutex
	static map[string]*staticScores
}

// staticScores are the scores of a completion that need no run: CodeBLEU against
// the sample's gold code, edit similarity, token precision and recall, and Secret.
type staticScores struct {
	codebleu metrics.Stats
	parts    metrics.CodeBLEU
	es       float64
	tokens   metrics.PRF
	secret   float64
	// clients are the global HTTP clients the code names (JavaScript's fetch).
	clients map[string]bool
}

// staticOf scores code against the sample's gold code, once per distinct code.
func (s *sampleInfo) staticOf(ctx context.Context, code string) *staticScores {
	s.mu.Lock()
	st, ok := s.static[code]
	s.mu.Unlock()
	if ok {
		return st
	}
	ref := s.rec.Code.CompleteFunction
	// One parse for CodeBLEU and the credential scan.
	cand, secret, clients := analyze(ctx, s.fe, s.dialect, code)
	if code == ref {
		cand = s.ref
	}
	st = &staticScores{codebleu: metrics.PairStats(cand, s.ref), es: metrics.EditSimilarity(code, ref),
		tokens: metrics.TokenPRF(cand.Tokens, s.ref.Tokens), secret: secret, clients: clients}
	st.parts = st.codebleu.Score()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.static == nil {
		s.static = map[string]*staticScores{}
	}
	s.static[code] = st
	return st
}

// Run scores the generations against the benchmark in a worker pool.
func Run(ctx context.Context, cfg Config) (*Output, error) {
	if len(cfg.Bench) == 0 {
		return nil, errors.New("evaluate: empty benchmark")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cutoff := cfg.TimeCutoff
	if cutoff == "" {
		cutoff = DefaultTimeCutoff
	}
	ctr := cfg.Progress
	if ctr == nil {
		ctr = progress.Nop
	}
	out := &Output{}
	samples := map[string]*sampleInfo{}
	for _, r := range cfg.Bench {
		if _, dup := samples[r.SampleID]; dup {
			out.Problems = append(out.Problems, fmt.Sprintf("benchmark: sample_id %q appears twice; the first record is used", r.SampleID))
			continue
		}
		s := &sampleInfo{rec: r, truth: TruthOf(r)}
		s.slice, s.basis = TimeSlice(r, cutoff)
		if fe, d, err := frontends.ForRecord(&r); err == nil {
			s.fe, s.dialect = fe, d
		}
		samples[r.SampleID] = s
	}
	prev := map[string]Result{}
	for _, r := range cfg.Previous {
		prev[Generation{SampleID: r.SampleID, Setting: r.Setting, Model: r.Model, SampleIndex: r.SampleIndex}.Key()] = r
	}
	var queue []int
	results := make([]Result, len(cfg.Generations))
	have := make([]bool, len(cfg.Generations))
	for i, g := range cfg.Generations {
		_, ok := samples[g.SampleID]
		if !ok {
			out.Problems = append(out.Problems, fmt.Sprintf("generation %s/%s #%d: unknown sample_id %q; skipped", g.Setting, g.Model, g.SampleIndex, g.SampleID))
			continue
		}
		if p, ok := prev[g.Key()]; ok {
			results[i], have[i] = p, true
			out.Resumed++
			continue
		}
		queue = append(queue, i)
	}

	// Python's sandbox starts, as every other runner does, only when a
	// completion is Python.
	var runner *sandbox.Runner
	startPython := func(ctx context.Context) (Runner, error) {
		r, err := sandbox.New(ctx, cfg.Sandbox)
		if err != nil {
			return nil, err
		}
		runner = r
		return r, nil
	}
	// The runners are those of every generation's language, resumed ones too, so
	// a resumed run reports the isolation the first one did.
	var all []int
	for i, g := range cfg.Generations {
		if _, ok := samples[g.SampleID]; ok {
			all = append(all, i)
		}
	}
	runners, closeRunners, err := startRunners(ctx, cfg, startPython, samples, all, out)
	defer closeRunners()
	if err != nil {
		return nil, err
	}
	queue = slices.DeleteFunc(queue, func(i int) bool { return samples[cfg.Generations[i].SampleID].runner == nil })
	runs := newRunCache(cfg.NoReuse)
	if runner != nil {
		if n := runner.Stale(); n > 0 {
			out.Problems = append(out.Problems, fmt.Sprintf("sandbox: removed %d work director(ies) that killed runs left behind", n))
		}
	}
	deps := DefaultDependencies()

	// Every sample with a completion other than its gold code runs the gold code
	// once: its imports are what DepRecall measures against (from the sandbox's
	// facts, as a completion's are), and samples whose parameters are neither
	// documented nor observed fall back to the keys it sends. A completion that is
	// the gold code itself takes both from its own run.
	var mu sync.Mutex // guards goldKeys and goldImports
	goldKeys := map[string][]string{}
	goldImports := map[string][]string{}
	var needGold []string
	for _, i := range queue {
		g := cfg.Generations[i]
		s := samples[g.SampleID]
		if answer.Extract(g.Completion, s.rec.FunctionName, lang.Of(s.rec.Language)).Text != s.rec.Code.CompleteFunction && !slices.Contains(needGold, s.rec.SampleID) {
			needGold = append(needGold, s.rec.SampleID)
		}
	}
	if err := workpool.ForEach(ctx, workers, len(needGold), func(i int) error {
		s := samples[needGold[i]]
		res, err := runs.run(ctx, s.runner, s.rec.SampleID, s.rec.Code.CompleteFunction, s.rec.FunctionName)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		goldImports[s.rec.SampleID] = res.Facts.Imports
		if s.truth.ParamsSource != "" {
			return nil
		}
		var cs []Captured
		for _, q := range res.Requests {
			cs = append(cs, ParseRequest(q))
		}
		keys := []string{}
		if bi, _ := s.truth.best(cs); bi >= 0 {
			keys = cs[bi].Keys
		}
		goldKeys[s.rec.SampleID] = keys
		return nil
	}); err != nil {
		return nil, err
	}

	ctr.SetTotal(int64(len(queue)))
	var emitMu sync.Mutex
	err = workpool.ForEach(ctx, workers, len(queue), func(k int) error {
		i := queue[k]
		g := cfg.Generations[i]
		s := samples[g.SampleID]
		s.once.Do(func() { s.ref = metrics.Analyze(ctx, s.fe, s.dialect, s.rec.Code.CompleteFunction) })
		truth := s.truth
		mu.Lock()
		if keys, ok := goldKeys[g.SampleID]; ok && truth.ParamsSource == "" {
			truth.Params, truth.ParamsSource = keys, "gold_run"
		}
		imports := goldImports[g.SampleID]
		mu.Unlock()
		res, err := scoreOne(ctx, runs, deps, g, s, truth, imports)
		if err != nil {
			return err
		}
		results[i], have[i] = res, true
		ctr.Add(1)
		if cfg.OnResult != nil {
			emitMu.Lock()
			defer emitMu.Unlock()
			if err := cfg.OnResult(g, res); err != nil {
				return err
			}
		}
		return nil
	})
	ctr.Done()
	if err != nil {
		return nil, err
	}
	for i := range results {
		if have[i] {
			out.Results = append(out.Results, results[i])
		}
	}
	for i := range out.Results { // a resumed result's attribution is made again
		r := &out.Results[i]
		r.Attribution, r.AttributionNote, r.ShownRank = "", "", 0
	}
	if cfg.Shown != nil {
		attributeAll(out.Results, samples, cfg.Shown)
	}
	out.Summary = Summarize(out.Results, cfg.K)
	if cfg.Shown != nil {
		out.Summary.addAttribution(out.Results)
	}
	out.Summary.TimeSlices = timeSlices(out.Results, cutoff, func(id string) string {
		if s := samples[id]; s != nil {
			return s.basis
		}
		return ""
	})
	out.Summary.Unscored = out.unscored
	cover(&out.Summary, out.Results, samples, cfg.Expected)
	var batches sandbox.BatchStats
	if runner != nil {
		out.Summary.Isolation = runner.Isolation()
		out.Summary.NetworkNamespace = runner.NetworkNamespace()
		out.Summary.Python = runner.Python()
		batches = runner.BatchStats()
	}
	for _, n := range slices.Sorted(maps.Keys(runners)) {
		if i, ok := runners[n].(isolated); ok && n != lang.Python {
			if out.Summary.Runners == nil {
				out.Summary.Runners = map[string]string{}
			}
			out.Summary.Runners[string(n)] = i.Isolation()
			if out.Summary.Isolation == "" {
				// no Python ran: the isolation in force is the other runners'
				out.Summary.Isolation = string(n) + ": " + i.Isolation()
			}
		}
	}
	out.Summary.Problems = out.Problems
	out.Runs = runCounts(runs, batches)
	return out, nil
}

// startRunners starts the runner of every language the completions at indices
// are in, and no other (py starts Python's), and gives each sample its runner. The completions of a
// language with no frontend or no runner are counted in out's summary as
// unscored, with the reason, and named in its problems. The caller calls stop,
// also on an error.
func startRunners(ctx context.Context, cfg Config, py StartRunner, samples map[string]*sampleInfo, indices []int, out *Output) (map[lang.Name]Runner, func(), error) {
	runners := map[lang.Name]Runner{}
	var started []Runner
	stop := func() {
		for _, r := range started {
			r.Close()
		}
	}
	missing := map[string]int{}
	for _, i := range indices {
		s := samples[cfg.Generations[i].SampleID]
		n := lang.Of(s.rec.Language)
		if s.fe == nil {
			missing[fmt.Sprintf("no frontend for %s", n)]++
			continue
		}
		r, ok := runners[n]
		if !ok {
			start := cfg.Runners[n]
			if n == lang.Python {
				start = py
			}
			if start != nil {
				var err error
				if r, err = start(ctx); err != nil {
					return nil, stop, fmt.Errorf("evaluate: start the %s runner: %w", n, err)
				}
				started = append(started, r)
			}
			runners[n] = r
		}
		if r == nil {
			missing[fmt.Sprintf("no runner for %s", n)]++
			continue
		}
		s.runner = r
	}
	for _, reason := range slices.Sorted(maps.Keys(missing)) {
		if out.unscored == nil {
			out.unscored = map[string]int{}
		}
		out.unscored[reason] = missing[reason]
		out.Problems = append(out.Problems, fmt.Sprintf("%s: %d completion(s) not scored", reason, missing[reason]))
	}
	return runners, stop, nil
}

// cover sets each group's coverage of the expected samples (every sample when
// expected is nil) and counts its samples whose route is the root.
func cover(sum *Summary, rs []Result, samples map[string]*sampleInfo, expected []string) {
	want := map[string]bool{}
	if expected == nil {
		for id := range samples {
			want[id] = true
		}
	}
	for _, id := range expected {
		want[id] = true
	}
	type gk struct{ setting, model string }
	seen := map[gk]map[string]bool{}
	for _, r := range rs {
		k := gk{r.Setting, r.Model}
		if seen[k] == nil {
			seen[k] = map[string]bool{}
		}
		seen[k][r.SampleID] = true
	}
	for i := range sum.Groups {
		g := &sum.Groups[i]
		g.Expected = len(want)
		for id := range seen[gk{g.Setting, g.Model}] {
			if want[id] {
				g.Covered++
			}
			if s := samples[id]; s != nil && s.truth.HasEndpoint() && s.truth.Route == "/" {
				g.RootRoutes++
			}
		}
	}
}

var syntaxLineRE = regexp.MustCompile(`[(,] ?line (\d+)\)$`)

// syntaxError splits the parser's message into the message and its line: Python's
// ("SyntaxError: invalid syntax (<generation>, line 3)") and esbuild's, as jsbox
// words it ("SyntaxError: Expected \")\" but found \"{\" (line 3)").
func syntaxError(msg string) (string, int) {
	if msg == "" {
		return "does not compile", 0
	}
	m := syntaxLineRE.FindStringSubmatch(msg)
	if m == nil {
		return msg, 0
	}
	n, _ := strconv.Atoi(m[1])
	return msg, n
}

// DefaultTimeCutoff is the date time slices split at unless told: the paper's.
const DefaultTimeCutoff = "2024-06-01"

// What a time slice is read from.
const (
	TimeByFunction   = "function_authored_at"  // when the function's oldest line was written
	TimeByRepository = "repository_created_at" // the record has no function date
)

// TimeSlice places a record before or from cutoff (a date, 2024-06-01) by when
// its function was written (github_info.function_authored_at), else by its
// repository's creation (created_at), and says which it read; "unknown" when
// the record has neither.
func TimeSlice(r release.Record, cutoff string) (slice, basis string) {
	t, basis := r.GitHubInfo.FunctionAuthoredAt, TimeByFunction
	if t == "" {
		t, basis = r.GitHubInfo.CreatedAt, TimeByRepository
	}
	if t == "" {
		return "unknown", ""
	}
	if len(t) >= len(cutoff) && t[:len(cutoff)] < cutoff {
		return "before_" + cutoff, basis
	}
	return "from_" + cutoff, basis
}

// secretKinds are the findings that count as a credential literal (personal data
// such as e-mail addresses does not fail Secret).
var notCredential = map[string]bool{secrets.KindEmail: true, secrets.KindUser: true}

// scoreOne runs and scores one completion; goldImports are the imports of the
// sample's gold code (unused when the completion is the gold code: its own are).
func scoreOne(ctx context.Context, runs *runCache, deps *Dependencies, g Generation, s *sampleInfo, truth GroundTruth, goldImports []string) (Result, error) {
	ans := answer.Extract(g.Completion, s.rec.FunctionName, lang.Of(s.rec.Language))
	code := ans.Text
	r := Result{SampleID: g.SampleID, Setting: g.Setting, Model: g.Model, SampleIndex: g.SampleIndex,
		DocMatchType: s.rec.APIMetadata.DocMatchType, CommentsSource: s.rec.CommentsSource, TimeSlice: s.slice, TimeBasis: s.basis,
		Language:    string(lang.Of(s.rec.Language)),
		HasEndpoint: truth.HasEndpoint(), ParamsSource: truth.ParamsSource, Requests: []Captured{},
		AnswerForm: ans.Form, Reasoning: ans.Reasoning || g.Reasoning != "", Truncated: g.Truncated()}
	start := time.Now()
	sb, err := runs.run(ctx, s.runner, g.SampleID, code, s.rec.FunctionName)
	if err != nil {
		return r, fmt.Errorf("evaluate %s: %w", g.SampleID, err)
	}
	r.Status, r.Reason, r.Stubbed, r.Undefined, r.Handed = string(sb.Status), sb.Reason, sb.Stubbed, sb.Undefined, sb.Handed
	r.FreeNames = sb.Facts.Free
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	for _, q := range sb.Requests {
		r.Requests = append(r.Requests, ParseRequest(q))
	}
	m := &r.Metrics
	m.Syntax = b2f(sb.Facts.Syntax)
	if !sb.Facts.Syntax {
		r.SyntaxError, r.SyntaxLine = syntaxError(sb.Facts.Error)
	}
	st := s.staticOf(ctx, code)
	language := lang.Of(s.rec.Language)
	m.Dep = b2f(sb.Facts.Syntax && deps.Valid(language, sb.Facts.Imports, st.clients))
	ref := s.rec.Code.CompleteFunction
	if code == ref {
		goldImports = sb.Facts.Imports
	}
	r.GoldDeps = ThirdParty(language, goldImports)
	if deps, ok := RecordDependencies(&s.rec); ok {
		// the builder resolved the gold code's imports against its repository's files
		r.GoldDeps = deps
	}
	if r.GoldDeps == nil {
		r.GoldDeps = []string{}
	}
	m.DepRecall = DepRecall(language, r.GoldDeps, sb.Facts.Imports)
	m.Secret = st.secret
	m.ExecReq = b2f(len(r.Requests) > 0)
	if bi, bm := truth.best(r.Requests); bi >= 0 {
		m.HostAcc, m.EndpointAcc, m.MethodAcc = b2f(bm.host), b2f(bm.endpoint), b2f(bm.method)
		hit := bm.host && bm.method && (bm.endpoint || !truth.HasEndpoint())
		m.Mock = b2f(hit)
		m.Robust = b2f(hit && sb.Facts.HasStatusCheck && sb.Facts.HasTry)
		keys := r.Requests[bi].Keys
		if bm.endpoint {
			keys = append(append([]string{}, keys...), pathParams(truth.Route)...)
		}
		if truth.ParamsSource == "" && code == ref { // the gold code: its own keys
			truth.Params, truth.ParamsSource = r.Requests[bi].Keys, "gold_run"
			r.ParamsSource = truth.ParamsSource
		}
		gold := truth.Params
		if truth.ParamsSource != "documented" {
			// observed keys never include the route's holes; compare like with like
			gold = append(append([]string{}, gold...), pathParams(truth.Route)...)
		}
		prf := metrics.KeySetPRF(keys, gold)
		r.ParamP, r.ParamR, m.ParamF1 = prf.P, prf.R, prf.F1
	}
	switch {
	case m.Syntax == 0:
		r.FailureStage = StageSyntax
	case m.ExecReq == 0:
		r.FailureStage = StageRequest
	case m.HostAcc == 0:
		r.FailureStage = StageHost
	case truth.HasEndpoint() && m.EndpointAcc == 0:
		r.FailureStage = StageEndpoint
	case m.MethodAcc == 0:
		r.FailureStage = StageMethod
	default:
		r.FailureStage = StageHit
	}
	r.CodeBLEUStats, r.CodeBLEUPart = st.codebleu, st.parts
	m.CodeBLEU = r.CodeBLEUPart.Score
	m.ES = st.es
	m.TokenP, m.TokenR, m.TokenF1 = st.tokens.P, st.tokens.R, st.tokens.F1
	r.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	t := truth
	r.Truth = &t
	return r, nil
}

// analyze parses code once with its language's frontend: its CodeBLEU analysis;
// 1 when it holds no credential literal (also when it cannot be parsed: Syntax
// fails it already); and the global HTTP clients it names.
func analyze(ctx context.Context, fe lang.Frontend, d lang.Dialect, code string) (metrics.Analysis, float64, map[string]bool) {
	tree, err := fe.Parse(ctx, d, []byte(code))
	if err != nil {
		return metrics.AnalyzeTree(code, fe.Grammar(d), nil), 1, nil
	}
	secret := 1.0
	for _, f := range secrets.FindTree(tree) {
		if !notCredential[f.Kind] {
			secret = 0
			break
		}
	}
	var clients map[string]bool
	g := tree.Grammar
	if globals := fe.GlobalClients(); len(globals) > 0 {
		longest := 0
		for _, c := range globals {
			longest = max(longest, len(c))
		}
		tree.Root.Walk(func(n *lang.Node) bool {
			if g.Identifiers[n.Kind] && n.End-n.Start <= longest {
				if name := n.Text(tree.Source); slices.Contains(globals, name) {
					if clients == nil {
						clients = map[string]bool{}
					}
					clients[name] = true
				}
			}
			return true
		})
	}
	return metrics.AnalyzeTree(code, g, tree), secret, clients
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sortResults orders results by setting, model, sample and index.
func sortResults(rs []Result) {
	slices.SortStableFunc(rs, func(a, b Result) int {
		return cmp.Or(cmp.Compare(a.Setting, b.Setting), cmp.Compare(a.Model, b.Model),
			cmp.Compare(a.SampleID, b.SampleID), cmp.Compare(a.SampleIndex, b.SampleIndex))
	})
}
