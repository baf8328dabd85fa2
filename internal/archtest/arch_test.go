// Package archtest holds the test of sccg's dependency rules (docs/ARCHITECTURE.md):
// it lists every package's imports with `go list` and fails on an import that breaks
// a rule, naming the importer, the import and the rule.
package archtest

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "sccg"

// stages are the builder stages: each owns a step of the pipeline and talks to the
// others only through the store.
var stages = []string{"crawl", "mine", "extract", "align", "decontam", "redact", "samples", "split"}

// evaluator is the evaluation side: it reads benchmarks in the release format and
// never needs a builder stage.
const evaluator = "evaluate"

// provenance reads every stage's decisions from the store and knows the stages by
// name only (provenance.Stages): a library, so the stages and the evaluator's
// report may call it.
const provenance = "provenance"

// wiring may import anything: the CLI and the pipeline that runs every stage.
var wiring = []string{"cmd/", "internal/pipeline"}

// cgoFree must build with CGO_ENABLED=0: the contracts every reader decodes.
var cgoFree = []string{"release", "lang"}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	CgoFiles   []string
}

// listPackages runs go list over the module.
func listPackages(t *testing.T, env ...string) map[string]pkg {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = root
	cmd.Env = append(cmd.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

// rel is a module package's path inside the module ("" for other packages).
func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// top is the first path element: the stage or library a package belongs to.
func top(r string) string {
	first, _, _ := strings.Cut(r, "/")
	return first
}

func isWiring(r string) bool {
	return slices.ContainsFunc(wiring, func(w string) bool { return r == strings.TrimSuffix(w, "/") || strings.HasPrefix(r, w) })
}

func isStage(r string) bool { return slices.Contains(stages, top(r)) }

// implementations are the packages that implement a language (lang.Frontend), one
// folder each under lang, and what only they may use (lang/internal: the
// tree-sitter tree they share, Python's compile check): the stages and the
// evaluator reach a language through package lang/frontends, never these.
var implementations = []string{"lang/python", "lang/javascript", "lang/internal"}

// registry is the one package that knows every implementation.
const registry = "lang/frontends"

// grammars are tree-sitter's language bindings: a language's parsing belongs to
// its frontend.
var grammars = "github.com/smacker/go-tree-sitter/"

// grammarDebts are the packages that still parse Python with tree-sitter
// themselves, each with where it goes behind the seam. A new one fails the test; a
// paid debt must be taken off this list (the test says so).
var grammarDebts = map[string]string{}

func isImplementation(r string) bool {
	return slices.ContainsFunc(implementations, func(i string) bool { return r == i || strings.HasPrefix(r, i+"/") })
}

// seamViolations lists every package outside the language implementations and the
// registry that uses an implementation or a tree-sitter grammar directly, but for
// the debts listed.
func seamViolations(pkgs map[string]pkg, debts map[string]string) []string {
	var bad []string
	used := map[string]bool{}
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok || isWiring(from) || strings.HasSuffix(p.ImportPath, ".test") || isImplementation(from) || from == registry {
			continue
		}
		for _, imp := range p.Imports {
			if to, ok := rel(imp); ok && isImplementation(to) {
				bad = append(bad, from+" imports "+to+": a language is reached through frontends, never its implementation")
			}
			if strings.HasPrefix(imp, grammars) && imp != strings.TrimSuffix(grammars, "/") {
				if _, debt := debts[from]; debt {
					used[from] = true
					continue
				}
				bad = append(bad, from+" imports "+imp+": parsing a language belongs to its frontend")
			}
		}
	}
	for from := range debts {
		if _, listed := pkgs[module+"/"+from]; listed && !used[from] {
			bad = append(bad, from+" no longer parses with a grammar itself: take it off grammarDebts")
		}
	}
	slices.Sort(bad)
	return bad
}

func TestLanguageSeam(t *testing.T) {
	for _, v := range seamViolations(listPackages(t), grammarDebts) {
		t.Error(v)
	}
}

func TestSeamRulesCatchBrokenImports(t *testing.T) {
	pkgs := map[string]pkg{
		"sccg/extract":         {ImportPath: "sccg/extract", Imports: []string{"sccg/lang/frontends", "sccg/lang/python"}},
		"sccg/redact":          {ImportPath: "sccg/redact", Imports: []string{"github.com/smacker/go-tree-sitter/javascript"}},
		"sccg/lang/frontends":  {ImportPath: "sccg/lang/frontends", Imports: []string{"sccg/lang/python", "sccg/lang/javascript"}},
		"sccg/lang/javascript": {ImportPath: "sccg/lang/javascript", Imports: []string{"github.com/smacker/go-tree-sitter/javascript", "sccg/lang/internal/tstree"}},
		"sccg/secrets":         {ImportPath: "sccg/secrets", Imports: []string{"github.com/smacker/go-tree-sitter/python"}},
		"sccg/evaluate":        {ImportPath: "sccg/evaluate", Imports: []string{"sccg/lang/frontends"}},
		"sccg/align":           {ImportPath: "sccg/align", Imports: []string{"sccg/lang/internal/tstree"}},
	}
	got := seamViolations(pkgs, map[string]string{"evaluate": "a paid debt", "secrets": "a debt"})
	want := []string{
		"align imports lang/internal/tstree: a language is reached through frontends, never its implementation",
		"evaluate no longer parses with a grammar itself: take it off grammarDebts",
		"extract imports lang/python: a language is reached through frontends, never its implementation",
		"redact imports github.com/smacker/go-tree-sitter/javascript: parsing a language belongs to its frontend",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	secretsOnly := map[string]pkg{"sccg/secrets": pkgs["sccg/secrets"]}
	if got := seamViolations(secretsOnly, nil); !slices.Equal(got, []string{"secrets imports github.com/smacker/go-tree-sitter/python: parsing a language belongs to its frontend"}) {
		t.Errorf("a grammar import that is no debt: %q", got)
	}
}

// violations lists every import of pkgs that breaks a rule.
func violations(pkgs map[string]pkg) []string {
	var bad []string
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok || isWiring(from) || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		for _, imp := range p.Imports {
			to, ok := rel(imp)
			if !ok || top(to) == top(from) {
				continue
			}
			switch {
			case isWiring(to):
				bad = append(bad, from+" imports "+to+": only the CLI imports the wiring")
			case isStage(from) && isStage(to):
				bad = append(bad, from+" imports "+to+": stages talk through the store, never to each other")
			case top(from) == provenance && isStage(to):
				bad = append(bad, from+" imports "+to+": provenance knows the stages by name only (provenance.Stages)")
			case top(from) == evaluator && isStage(to):
				bad = append(bad, from+" imports "+to+": the evaluator imports no builder stage")
			case !isStage(from) && top(from) != evaluator && (isStage(to) || top(to) == evaluator):
				bad = append(bad, from+" imports "+to+": a library imports no stage")
			}
		}
	}
	slices.Sort(bad)
	return bad
}

func TestDependencyRules(t *testing.T) {
	for _, v := range violations(listPackages(t)) {
		t.Error(v)
	}
}

func TestRulesCatchBrokenImports(t *testing.T) {
	pkgs := map[string]pkg{
		"sccg/align":            {ImportPath: "sccg/align", Imports: []string{"sccg/store", "sccg/mine", "sccg/minhash"}},
		"sccg/evaluate/prompts": {ImportPath: "sccg/evaluate/prompts", Imports: []string{"sccg/release", "sccg/samples", "sccg/evaluate"}},
		"sccg/minhash":          {ImportPath: "sccg/minhash", Imports: []string{"sccg/decontam"}},
		"sccg/provenance":       {ImportPath: "sccg/provenance", Imports: []string{"sccg/store", "sccg/samples", "sccg/evaluate"}},
		"sccg/evaluate/report":  {ImportPath: "sccg/evaluate/report", Imports: []string{"sccg/provenance"}},
		"sccg/samples":          {ImportPath: "sccg/samples", Imports: []string{"sccg/provenance"}},
		"sccg/store":            {ImportPath: "sccg/store", Imports: []string{"sccg/internal/pipeline"}},
		"sccg/cmd/sccg":         {ImportPath: "sccg/cmd/sccg", Imports: []string{"sccg/align", "sccg/internal/pipeline"}},
	}
	got := violations(pkgs)
	want := []string{
		"align imports mine: stages talk through the store, never to each other",
		"evaluate/prompts imports samples: the evaluator imports no builder stage",
		"minhash imports decontam: a library imports no stage",
		"provenance imports evaluate: a library imports no stage",
		"provenance imports samples: provenance knows the stages by name only (provenance.Stages)",
		"store imports internal/pipeline: only the CLI imports the wiring",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// std reports whether path is a standard-library package.
func std(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && first != module
}

// TestContractsBuildWithoutCgo: the release format and the stored facts are read by
// every stage and by outside tools, so nothing they depend on may need cgo.
func TestContractsBuildWithoutCgo(t *testing.T) {
	pkgs := listPackages(t)
	for _, name := range cgoFree {
		p, ok := pkgs[module+"/"+name]
		if !ok {
			t.Errorf("package %s not found", name)
			continue
		}
		for _, d := range append([]string{p.ImportPath}, p.Deps...) {
			if std(d) {
				continue // the standard library builds without cgo
			}
			if dp, ok := pkgs[d]; ok && len(dp.CgoFiles) > 0 {
				t.Errorf("%s depends on %s, which needs cgo (%v)", name, d, dp.CgoFiles)
			}
		}
	}
}
