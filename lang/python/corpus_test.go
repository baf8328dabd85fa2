package python

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"sccg/lang"
)

// corpusRoot is the shared synthetic GitHub corpus.
var corpusRoot = filepath.Join("..", "internal", "replay", "testdata", "github")

// corpusFile is one Python file of the corpus.
type corpusFile struct {
	repo, path string // owner/repo and the path inside files/
	abs        string
}

// corpusFiles lists the corpus's Python files in a stable order; it skips the test
// when the corpus is absent.
func corpusFiles(t testing.TB) []corpusFile {
	t.Helper()
	repos := filepath.Join(corpusRoot, "repos")
	if _, err := os.Stat(repos); err != nil {
		t.Skipf("corpus not present: %v", err)
	}
	var out []corpusFile
	err := filepath.WalkDir(repos, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		rel, _ := filepath.Rel(repos, p)
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 4)
		if len(parts) < 4 || parts[2] != "files" {
			return nil
		}
		out = append(out, corpusFile{repo: parts[0] + "/" + parts[1], path: parts[3], abs: p})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].repo+"/"+out[i].path < out[j].repo+"/"+out[j].path })
	return out
}

// corpusLabel is one entry of labels.json.
type corpusLabel struct {
	Repo          string  `json:"repo"`
	Path          string  `json:"path"`
	Function      string  `json:"function"`
	Host          *string `json:"host"`
	Method        *string `json:"method"`
	Route         *string `json:"route"`
	ExpectedMatch string  `json:"expected_match"`
	Template      bool    `json:"template"`
	Python2       bool    `json:"python2"`
	DuplicateOf   *string `json:"duplicate_of"`
	NearDupOf     *string `json:"near_duplicate_of"`
	Notes         string  `json:"notes"`
}

func corpusLabels(t testing.TB) []corpusLabel {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusRoot, "labels.json"))
	if err != nil {
		t.Skipf("labels not present: %v", err)
	}
	var doc struct {
		Functions []corpusLabel `json:"functions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Functions
}

// extractCorpus extracts every corpus file, keyed by "repo:path".
func extractCorpus(t testing.TB) map[string]*lang.Result {
	t.Helper()
	out := map[string]*lang.Result{}
	for _, f := range corpusFiles(t) {
		b, err := os.ReadFile(f.abs)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Extract(context.Background(), b, Options{})
		if err != nil {
			t.Errorf("%s:%s: %v", f.repo, f.path, err)
			continue
		}
		out[f.repo+":"+f.path] = res
	}
	return out
}

// routeMatches compares an observed path with a documented route template: a
// {param} segment on either side matches any one segment.
func routeMatches(observed, route string) bool {
	o := strings.Split(strings.Trim(observed, "/"), "/")
	r := strings.Split(strings.Trim(route, "/"), "/")
	if len(o) != len(r) {
		return false
	}
	for i := range o {
		if isTemplateSeg(o[i]) || isTemplateSeg(r[i]) {
			continue
		}
		if o[i] != r[i] {
			return false
		}
	}
	return true
}

func isTemplateSeg(s string) bool { return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") }

func TestCorpusAgreesWithLabels(t *testing.T) {
	labels := corpusLabels(t)
	results := extractCorpus(t)
	byKey := map[string]lang.Function{}
	for k, r := range results {
		for _, f := range r.Functions {
			byKey[k+":"+f.QualName] = f
		}
	}
	labeled := map[string]bool{}
	var found, host, route, method, nHost, nRoute, nMethod int
	for _, l := range labels {
		key := l.Repo + ":" + l.Path + ":" + l.Function
		labeled[key] = true
		f, ok := byKey[key]
		if !ok {
			t.Errorf("%s: labeled function not extracted (%s)", key, l.Notes)
			continue
		}
		found++
		if l.Python2 && f.Status != lang.StatusRejected {
			t.Errorf("%s: Python 2 function kept as a candidate", key)
		}
		if l.Function == ModuleQualName && f.Status != lang.StatusRejected {
			t.Errorf("%s: top-level code kept as a candidate", key)
		}
		if len(f.Facts.Calls) == 0 {
			t.Errorf("%s: no call sites", key)
			continue
		}
		c := f.Facts.Calls[0]
		if l.Host != nil && l.ExpectedMatch != "none" {
			nHost++
			if slices.ContainsFunc(f.Facts.Calls, func(c lang.Call) bool { return c.Host == *l.Host || strings.EqualFold(c.RapidAPIHost, *l.Host) }) {
				host++
			} else {
				t.Logf("host miss %s: got %q (url %q, expr %q), want %q [%s]", key, c.Host, c.URL, c.URLExpr, *l.Host, l.ExpectedMatch)
			}
		}
		if l.Route != nil && (l.ExpectedMatch == "url" || l.ExpectedMatch == "route") {
			nRoute++
			if slices.ContainsFunc(f.Facts.Calls, func(c lang.Call) bool { return routeMatches(c.Path, *l.Route) }) {
				route++
			} else {
				t.Logf("route miss %s: got %q (url %q, expr %q), want %q [%s]", key, c.Path, c.URL, c.URLExpr, *l.Route, l.ExpectedMatch)
			}
		}
		if l.Method != nil {
			nMethod++
			if slices.ContainsFunc(f.Facts.Calls, func(c lang.Call) bool { return c.Method == *l.Method }) {
				method++
			} else {
				t.Logf("method miss %s: got %q, want %q", key, c.Method, *l.Method)
			}
		}
	}
	// copies identical up to whitespace, comments and quoting share a code hash;
	// edited copies do not
	for _, l := range labels {
		key := l.Repo + ":" + l.Path + ":" + l.Function
		f, ok := byKey[key]
		if !ok {
			continue
		}
		if l.DuplicateOf != nil {
			if orig, ok := byKey[*l.DuplicateOf]; !ok || orig.CodeHash != f.CodeHash {
				t.Errorf("%s: duplicate of %s but the code hashes differ", key, *l.DuplicateOf)
			}
		}
		if l.NearDupOf != nil {
			if orig, ok := byKey[*l.NearDupOf]; ok && orig.CodeHash == f.CodeHash {
				t.Errorf("%s: near-duplicate of %s but the code hashes are equal", key, *l.NearDupOf)
			}
		}
	}
	for k := range byKey {
		if !labeled[k] {
			t.Logf("extra: %s (%s)", k, byKey[k].Status)
		}
	}
	t.Logf("labeled functions found %d/%d; host %d/%d, route %d/%d, method %d/%d", found, len(labels), host, nHost, route, nRoute, method, nMethod)
}
