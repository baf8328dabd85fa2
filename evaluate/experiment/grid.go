// Package experiment runs the paper's experiments in one resumable command: the
// grid of settings × models (and baselines) × samples of a grid file, each cell
// going prompts → generations (a model through the generator, or a baseline) →
// evaluation in the sandbox, into a results directory per cell, with a grid.json
// index and the paper's tables across cells (Table V per cell, the Table VII
// staircase across settings, pass@k) and the statistics hooks (the contamination
// tests and the temporal split) at the end. A killed grid resumes where it stopped:
// prompts and baseline generations are rebuilt identically, model generations skip
// what the output already holds, and the evaluator reuses the scores stored for the
// same completions.
package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"sccg/evaluate/baseline"
	"sccg/evaluate/prompts"
	"sccg/release"
)

// Stage names the experiment's runs in the store.
const Stage = "experiment"

// Grid is a grid file: what to run.
type Grid struct {
	// Bench is the benchmark (a release file or export directory); the command's
	// --bench overrides it. Relative paths are relative to the grid file.
	Bench string `json:"bench,omitempty" yaml:"bench"`
	Split string `json:"split,omitempty" yaml:"split"`
	// Train is the train source of bm25-nearest-train and of the learned
	// retriever (rag-learned): a release file, every record of it train, for a
	// benchmark that has no train split of its own (or to train on another).
	Train string `json:"train,omitempty" yaml:"train"`
	// Docs are documentation files for an imported benchmark (see sccg prompts).
	Docs []string `json:"docs,omitempty" yaml:"docs"`
	// Task is generate (default) or select-endpoint.
	Task     string `json:"task,omitempty" yaml:"task"`
	Settings Names  `json:"settings" yaml:"settings"`
	// K is how many documents a RAG prompt gives (default prompts.DefaultK).
	K int `json:"k,omitempty" yaml:"k"`
	// Retrieval configures the retrievers of the RAG settings.
	Retrieval Retrieval `json:"retrieval" yaml:"retrieval"`
	Models    []Model   `json:"models,omitempty" yaml:"models"`
	Baselines Names     `json:"baselines,omitempty" yaml:"baselines"`
	// PassK are the pass@k values (default 1, and each model's n when above 1).
	PassK []int `json:"pass_at_k,omitempty" yaml:"pass_at_k"`
	// DropLeaks leaves intent-only prompts LeakCheck flags out instead of failing.
	DropLeaks bool   `json:"drop_leaks,omitempty" yaml:"drop_leaks"`
	Eval      Eval   `json:"eval" yaml:"eval"`
	Stats     Stats  `json:"stats" yaml:"stats"`
	dir       string // the grid file's directory
}

// Model is one model of the grid, served by an OpenAI-compatible endpoint.
type Model struct {
	Name    string `json:"name" yaml:"name"`
	BaseURL string `json:"base_url" yaml:"base_url"`
	// KeyEnv names the environment variable holding the API key (never the key).
	KeyEnv      string   `json:"key_env,omitempty" yaml:"key_env"`
	N           int      `json:"n,omitempty" yaml:"n"`
	Temperature *float64 `json:"temperature,omitempty" yaml:"temperature"`
	TopP        *float64 `json:"top_p,omitempty" yaml:"top_p"`
	MaxTokens   int      `json:"max_tokens,omitempty" yaml:"max_tokens"`
	Concurrency int      `json:"concurrency,omitempty" yaml:"concurrency"`
	// Timeout bounds one request (a Go duration, e.g. "2m").
	Timeout string `json:"timeout,omitempty" yaml:"timeout"`
	// Cutoff is the model's training cutoff (a date): its cells' time slices and
	// temporal tests split there, by when each sample's function was written
	// (default stats.cutoff).
	Cutoff string `json:"cutoff,omitempty" yaml:"cutoff"`
}

// Retrieval configures the RAG settings' retrievers: BM25 needs nothing; the
// learned ranker (rag-learned) is trained on the grid's train source, against
// TrainDocs or that source's own api_metadata; dense and hybrid embed through an
// OpenAI-compatible /v1/embeddings model.
type Retrieval struct {
	// TrainDocs are documentation files (OpenAPI / ToolBench) the learned ranker
	// trains against; relative to the grid file.
	TrainDocs  []string `json:"train_docs,omitempty" yaml:"train_docs"`
	BaseURL    string   `json:"base_url,omitempty" yaml:"base_url"`
	EmbedModel string   `json:"embed_model,omitempty" yaml:"embed_model"`
	KeyEnv     string   `json:"key_env,omitempty" yaml:"key_env"`
	// QueryPrefix and DocPrefix are put before queries and documents before they
	// are embedded (bge, e5 want them).
	QueryPrefix string `json:"query_prefix,omitempty" yaml:"query_prefix"`
	DocPrefix   string `json:"doc_prefix,omitempty" yaml:"doc_prefix"`
}

// Eval configures the sandbox.
type Eval struct {
	Timeout  string `json:"timeout,omitempty" yaml:"timeout"` // per completion, default 5s
	MemoryMB int    `json:"memory_mb,omitempty" yaml:"memory_mb"`
	Workers  int    `json:"workers,omitempty" yaml:"workers"`
	Exec     bool   `json:"exec,omitempty" yaml:"exec"`
}

// Stats configures the statistics hooks of the summary.
type Stats struct {
	// Cutoff splits the temporal slices (function_authored_at, else the
	// repository's created_at) of the baselines and of every model without a
	// cutoff of its own; default 2024-06-01.
	Cutoff string `json:"cutoff,omitempty" yaml:"cutoff"`
	// Rounds of each permutation test (default 10000) and their seed.
	Rounds int    `json:"rounds,omitempty" yaml:"rounds"`
	Seed   uint64 `json:"seed,omitempty" yaml:"seed"`
	// Metrics tested (default mock, es).
	Metrics []string `json:"metrics,omitempty" yaml:"metrics"`
	// Contamination runs every model on the human comment and on the redacted
	// intent of the samples that have both, and tests the pair.
	Contamination bool `json:"contamination,omitempty" yaml:"contamination"`
}

// Names is a list of names in a grid file. In YAML each is read as written, so
// "baselines: [gold, null]" names the null baseline instead of YAML's null value.
type Names []string

// UnmarshalYAML reads a sequence of scalars by their text.
func (n *Names) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: want a list of names", node.Line)
	}
	out := make(Names, 0, len(node.Content))
	for _, it := range node.Content {
		if it.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: want a name, not a %s", it.Line, kindName(it.Kind))
		}
		out = append(out, it.Value)
	}
	*n = out
	return nil
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "node"
}

// Defaults of the grid.
const (
	DefaultCutoff = "2024-06-01"
	DefaultRounds = 10000
)

// DefaultMetrics are the metrics the statistics hooks test.
var DefaultMetrics = []string{"mock", "es"}

// ReadGrid reads a grid file: YAML (.yaml, .yml) or JSON (.json). Unknown fields are
// errors, so a misspelt key is not silently ignored.
func ReadGrid(path string) (*Grid, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read grid: %w", err)
	}
	if emptyGrid(b) {
		return nil, fmt.Errorf("grid %s: %w", path, ErrEmptyGrid)
	}
	var g Grid
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		if err := yaml.Load(b, &g, yaml.WithKnownFields()); err != nil {
			return nil, fmt.Errorf("grid %s: %w", path, err)
		}
	case ".json":
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&g); err != nil {
			return nil, fmt.Errorf("grid %s: %w", path, err)
		}
	default:
		return nil, fmt.Errorf("grid %s: want a .yaml, .yml or .json file", path)
	}
	g.dir = filepath.Dir(path)
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("grid %s: %w", path, err)
	}
	return &g, nil
}

// ErrEmptyGrid is the error of a grid file with nothing in it: a usage error.
var ErrEmptyGrid = errors.New("the file is empty: a grid names at least its settings (see sccg experiment --help)")

// emptyGrid reports whether a grid file holds nothing but blanks and comments.
func emptyGrid(b []byte) bool {
	for _, line := range strings.Split(string(b), "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") && t != "---" {
			return false
		}
	}
	return true
}

// Resolve makes a path of the grid file relative to the file's directory.
func (g *Grid) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || g.dir == "" {
		return p
	}
	return filepath.Join(g.dir, p)
}

// Validate checks the grid and normalizes its names (settings, split).
func (g *Grid) Validate() error {
	var errs []error
	switch g.Task {
	case "":
		g.Task = prompts.TaskGenerate
	case prompts.TaskGenerate, prompts.TaskSelect:
	default:
		errs = append(errs, fmt.Errorf("task %q: want %s or %s", g.Task, prompts.TaskGenerate, prompts.TaskSelect))
	}
	if g.Split != "" {
		s, err := release.NormalizeName(g.Split)
		if err != nil {
			errs = append(errs, err)
		}
		g.Split = s
	}
	if g.Task == prompts.TaskSelect {
		if len(g.Settings) > 0 {
			errs = append(errs, errors.New("settings: the select-endpoint task has none (its candidates are its context)"))
		}
		g.Settings = []string{prompts.TaskSelect}
	} else {
		if len(g.Settings) == 0 {
			errs = append(errs, errors.New("settings: none given"))
		}
		for i, s := range g.Settings {
			n, err := prompts.NormalizeSetting(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("settings: %w", err))
				continue
			}
			if slices.Contains(g.Settings[:i], n) {
				errs = append(errs, fmt.Errorf("settings: %s given twice", n))
			}
			g.Settings[i] = n
		}
	}
	for _, s := range g.Settings {
		if (s == prompts.RAGDense || s == prompts.RAGHybrid) && (g.Retrieval.BaseURL == "" || g.Retrieval.EmbedModel == "") {
			errs = append(errs, fmt.Errorf("settings: %s needs an embeddings model (retrieval: base_url and embed_model)", s))
		}
	}
	if len(g.Models) == 0 && len(g.Baselines) == 0 {
		errs = append(errs, errors.New("neither models nor baselines: nothing to run"))
	}
	for i, m := range g.Models {
		switch {
		case strings.TrimSpace(m.Name) == "":
			errs = append(errs, fmt.Errorf("models[%d]: no name", i))
		case slices.Contains(baseline.Names, m.Name):
			errs = append(errs, fmt.Errorf("models[%d]: %q is a baseline's name", i, m.Name))
		case m.BaseURL == "":
			errs = append(errs, fmt.Errorf("models[%d] %s: no base_url", i, m.Name))
		case m.N < 0 || m.MaxTokens < 0 || m.Concurrency < 0:
			errs = append(errs, fmt.Errorf("models[%d] %s: negative n, max_tokens or concurrency", i, m.Name))
		}
		if m.Timeout != "" {
			if _, err := time.ParseDuration(m.Timeout); err != nil {
				errs = append(errs, fmt.Errorf("models[%d] %s: timeout: %w", i, m.Name, err))
			}
		}
		for _, o := range g.Models[:i] {
			if o.Name == m.Name {
				errs = append(errs, fmt.Errorf("models: %s given twice", m.Name))
			}
		}
	}
	for i, b := range g.Baselines {
		if !slices.Contains(baseline.Names, b) {
			errs = append(errs, fmt.Errorf("baselines: unknown %q (want %s)", b, strings.Join(baseline.Names, ", ")))
		}
		if slices.Contains(g.Baselines[:i], b) {
			errs = append(errs, fmt.Errorf("baselines: %s given twice", b))
		}
		if b == baseline.BM25NearestTrain && g.Task == prompts.TaskSelect {
			errs = append(errs, fmt.Errorf("baselines: %s does not do the %s task", b, prompts.TaskSelect))
		}
	}
	for _, k := range g.PassK {
		if k < 1 {
			errs = append(errs, fmt.Errorf("pass_at_k: %d is not positive", k))
		}
	}
	if g.Eval.Timeout != "" {
		if _, err := time.ParseDuration(g.Eval.Timeout); err != nil {
			errs = append(errs, fmt.Errorf("eval.timeout: %w", err))
		}
	}
	if g.Stats.Cutoff != "" {
		if _, err := time.Parse("2006-01-02", g.Stats.Cutoff); err != nil {
			errs = append(errs, fmt.Errorf("stats.cutoff: want a date like 2024-06-01: %w", err))
		}
	}
	for _, m := range g.Models {
		if m.Cutoff != "" {
			if _, err := time.Parse("2006-01-02", m.Cutoff); err != nil {
				errs = append(errs, fmt.Errorf("models: %s: cutoff: want a date like 2024-06-01: %w", m.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// cutoff is the date the time slices of model's cells split at: the model's
// training cutoff, else stats.cutoff, else DefaultCutoff (baselines too).
func (g *Grid) cutoff(model string) string {
	for _, m := range g.Models {
		if m.Name == model && m.Cutoff != "" {
			return m.Cutoff
		}
	}
	if g.Stats.Cutoff != "" {
		return g.Stats.Cutoff
	}
	return DefaultCutoff
}

// ks are the pass@k values of the grid.
func (g *Grid) ks() []int {
	if len(g.PassK) > 0 {
		return g.PassK
	}
	ks := []int{1}
	for _, m := range g.Models {
		if m.N > 1 && !slices.Contains(ks, m.N) {
			ks = append(ks, m.N)
		}
	}
	slices.Sort(ks)
	return ks
}
