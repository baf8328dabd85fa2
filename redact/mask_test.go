package redact

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/lang"
	"sccg/lang/python"
	"sccg/leakcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// replayRoot is the replay snapshot: the synthetic GitHub corpus and the catalog of
// the APIs it calls.
var replayRoot = filepath.Join("..", "internal", "replay", "testdata")

// corpusLabel is one labelled function of the corpus (github/labels.json).
type corpusLabel struct {
	Repo     string  `json:"repo"`
	Path     string  `json:"path"`
	Function string  `json:"function"`
	Host     *string `json:"host"`
	Route    *string `json:"route"`
}

// catalogAPI is one API of the snapshot's catalog.
type catalogAPI struct {
	Slug      string `json:"slug"`
	Title     string `json:"title"`
	Host      string `json:"host"`
	Endpoints []struct {
		Route  string `json:"route"`
		Params []struct {
			Name string `json:"name"`
		} `json:"params"`
	} `json:"endpoints"`
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("replay snapshot not present: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// corpusTruth is the ground truth LeakCheck and masking get for one labelled
// function: the label's host and route, the catalog's names and documented
// parameters, and the parameters the function's calls on that host send.
func corpusTruth(l corpusLabel, apis []catalogAPI, facts *lang.Facts) leakcheck.Truth {
	g := leakcheck.Truth{Host: *l.Host}
	if l.Route != nil {
		g.Route = *l.Route
	}
	for _, a := range apis {
		if a.Host != g.Host {
			continue
		}
		g.APINames = appendNew(g.APINames, a.Slug, a.Title)
		for _, ep := range a.Endpoints {
			if ep.Route == g.Route {
				for _, p := range ep.Params {
					g.ParamKeys = appendNew(g.ParamKeys, p.Name)
				}
			}
		}
	}
	addObserved(&g, facts)
	return g
}

// headerNames lists the headers a function's calls send.
func headerNames(facts *lang.Facts) []string {
	var out []string
	for _, c := range facts.Calls {
		for h := range c.Headers {
			out = appendNew(out, h)
		}
	}
	sort.Strings(out)
	return out
}

// leftOver lists what of g the masked code still spells out, besides parameter keys
// written as the function's own argument names (masking keeps those: they are the
// inputs the intent talks about).
func leftOver(code string, g leakcheck.Truth) []leakcheck.Leak {
	var out []leakcheck.Leak
	for _, l := range leakcheck.LeakCheck(code, g).Leaks {
		if l.Kind != leakcheck.KindParamKey {
			out = append(out, l)
		}
	}
	return out
}

// TestMaskGoldenCorpus masks every labelled function of the replay corpus with its
// ground truth and compares ỹ and its placeholders with testdata/golden/mask. The
// masked code must still parse and give away nothing of g but argument names.
func TestMaskGoldenCorpus(t *testing.T) {
	var labels struct {
		Functions []corpusLabel `json:"functions"`
	}
	readJSON(t, filepath.Join(replayRoot, "github", "labels.json"), &labels)
	var catalog struct {
		APIs []catalogAPI `json:"apis"`
	}
	readJSON(t, filepath.Join(replayRoot, "catalog.json"), &catalog)
	byFile := map[string][]corpusLabel{}
	for _, l := range labels.Functions {
		if l.Host != nil && *l.Host != "" {
			byFile[l.Repo+"/"+l.Path] = append(byFile[l.Repo+"/"+l.Path], l)
		}
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	masked := 0
	for _, file := range files {
		ls := byFile[file]
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(replayRoot, "github", "repos", ls[0].Repo, "files", ls[0].Path))
			if errors.Is(err, fs.ErrNotExist) {
				t.Skip("file not in the corpus")
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := python.Extract(context.Background(), src, python.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, l := range ls {
				i := slices.IndexFunc(res.Functions, func(f lang.Function) bool {
					return f.Status == lang.StatusCandidate && (f.QualName == l.Function || f.Name == l.Function)
				})
				if i < 0 {
					fmt.Fprintf(&b, "== %s: not extracted as a candidate\n\n", l.Function)
					continue
				}
				f := res.Functions[i]
				g := corpusTruth(l, catalog.APIs, &f.Facts)
				m, err := Mask(context.Background(), f.Code, g, MaskOptions{Function: f.QualName, Headers: headerNames(&f.Facts)})
				if err != nil {
					t.Errorf("%s: %v", f.QualName, err)
					continue
				}
				masked++
				if left := leftOver(m.Code, g); len(left) > 0 {
					t.Errorf("%s: the masked code still gives away %v:\n%s", f.QualName, leakcheck.Report{Leaked: true, Leaks: left}, m.Code)
				}
				renderMasked(&b, f.QualName, g, m)
			}
			golden.Check(t, filepath.Join("testdata", "golden", "mask", file+".txt"), []byte(b.String()), *update)
		})
	}
	if masked < 150 {
		t.Errorf("masked %d corpus functions, want the corpus's 150 or more", masked)
	}
}

func renderMasked(b *strings.Builder, qualname string, g leakcheck.Truth, m *Masked) {
	fmt.Fprintf(b, "== %s host=%s route=%q\n", qualname, g.Host, g.Route)
	if len(g.ParamKeys)+len(g.ParamValues) > 0 {
		fmt.Fprintf(b, "params: keys=%q values=%q\n", g.ParamKeys, g.ParamValues)
	}
	for _, p := range m.Placeholders {
		fmt.Fprintf(b, "placeholder %s ×%d %s %q\n", p.Token, p.Count, p.Kind, p.Original)
	}
	fmt.Fprintf(b, "parameters: %q\nreturns: %q\ncode:\n", m.Parameters, m.Returns)
	for _, line := range strings.Split(strings.TrimRight(m.Code, "\n"), "\n") {
		b.WriteString("  | " + line + "\n")
	}
	b.WriteString("\n")
}

func TestMaskExamples(t *testing.T) {
	const code = `import requests

FORECA_URL = "https://foreca-weather.p.rapidapi.com"
HEADERS = {"x-rapidapi-key": "<REDACTED_RAPIDAPI_KEY>", "x-rapidapi-host": "foreca-weather.p.rapidapi.com", "Accept": "application/json"}


def get_foreca_15minutely(location):
    # ask Foreca for https://foreca-weather.p.rapidapi.com/forecast/15minutely/{location}
    url = FORECA_URL + "/forecast/15minutely/" + location
    r = requests.get(url, headers=HEADERS, params={"tempunit": "C", "lang": "en", "periods": 12, "dataset": "full"})
    return r.json()["forecast"]
`
	g := leakcheck.Truth{Host: "foreca-weather.p.rapidapi.com", Route: "/forecast/15minutely/{location}", APINames: []string{"Foreca Weather"},
		ParamKeys: []string{"location", "tempunit", "lang", "periods", "dataset"}, ParamValues: []string{"C", "en", "12", "full"}}
	m, err := Mask(context.Background(), code, g, MaskOptions{Function: "get_foreca_15minutely", Headers: []string{"x-rapidapi-key", "x-rapidapi-host", "Accept"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `import requests

HOST_URL = "https://<HOST>"
HEADERS = {"x-rapidapi-key": "<REDACTED_RAPIDAPI_KEY>", "x-rapidapi-host": "<HOST>", "Accept": "<HEADER_1>"}


def get_HOST_SEGMENT_2(<LOC>):
    # ask <API_NAME> for <URL>
    url = HOST_URL + "/<SEGMENT_1>/<SEGMENT_2>/" + location
    r = requests.get(url, headers=HEADERS, params={"<PARAM_2>": "<VALUE_1>", "<PARAM_3>": "<VALUE_2>", "<PARAM_4>": "<VALUE_3>", "<PARAM_5>": "<VALUE_4>"})
    return r.json()["forecast"]
`
	want = strings.Replace(want, "<LOC>", "location", 1)
	if m.Code != want {
		t.Errorf("masked code:\n%s\nwant:\n%s\ndiff:\n%s", m.Code, want, golden.Diff(want, m.Code))
	}
	if !slices.Equal(m.Parameters, []string{"location"}) || !slices.Equal(m.Returns, []string{`r.json()["forecast"]`}) {
		t.Errorf("outline %q %q", m.Parameters, m.Returns)
	}
	for _, p := range m.Placeholders {
		if p.Kind == KindHeaderValue && p.Original != "accept" {
			t.Errorf("header placeholder %+v should name the header, never hold its value", p)
		}
	}
}

// BenchmarkMask measures masking one self-contained function of the corpus size.
func BenchmarkMask(b *testing.B) {
	code := `import os
import requests

BASE = "https://foreca-weather.p.rapidapi.com"
HEADERS = {"x-rapidapi-key": os.environ["KEY"], "x-rapidapi-host": "foreca-weather.p.rapidapi.com"}


def get_foreca_15minutely(location, periods=12):
    """Return the 15-minute forecast of a location."""
    url = f"{BASE}/forecast/15minutely/{location}"
    r = requests.get(url, headers=HEADERS, params={"tempunit": "C", "periods": periods, "dataset": "full"})
    r.raise_for_status()
    return r.json()["forecast"]
`
	g := leakcheck.Truth{Host: "foreca-weather.p.rapidapi.com", Route: "/forecast/15minutely/{location}", APINames: []string{"Foreca Weather"},
		ParamKeys: []string{"location", "tempunit", "periods", "dataset"}, ParamValues: []string{"C", "full"}}
	ctx := context.Background()
	for b.Loop() {
		if _, err := Mask(ctx, code, g, MaskOptions{Function: "get_foreca_15minutely"}); err != nil {
			b.Fatal(err)
		}
	}
}
