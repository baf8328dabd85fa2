package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"sccg/evaluate/jsbox"
	"sccg/evaluate/sandbox"
	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/release"
)

// fakeRunner answers every run with one GET to url and counts the runs.
type fakeRunner struct {
	url    string
	mu     sync.Mutex
	codes  []string
	closed bool
}

func (f *fakeRunner) Run(_ context.Context, code, function string) (sandbox.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.codes = append(f.codes, code)
	params, _ := json.Marshal([]string{"city"})
	return sandbox.Result{Status: sandbox.StatusOK, Requests: []sandbox.Request{{Lib: "fetch", Method: "GET", URL: f.url, Params: params}},
		Facts: sandbox.Facts{Syntax: true, Imports: []string{"axios"}, HasTry: true, HasStatusCheck: true}}, nil
}

func (f *fakeRunner) Close() error { f.closed = true; return nil }

func (f *fakeRunner) Isolation() string { return "fake" }

const jsGold = `import axios from 'axios';

export async function currentWeather(city) {
  try {
    const res = await axios.get('https://weatherly.p.rapidapi.com/current', { params: { city } });
    if (res.status !== 200) throw new Error('status ' + res.status);
    return res.data.temp;
  } catch (err) {
    return null;
  }
}
`

// mixedBench is the synthetic benchmark's first Python sample and a JavaScript
// sample of the same endpoint.
func mixedBench(t *testing.T) []release.Record {
	t.Helper()
	bench, _, _ := readSynthetic(t)
	js := bench[0]
	js.SampleID, js.Language, js.FunctionName = "SYN-JS-1", string(lang.JavaScript), "currentWeather"
	js.GitHubInfo.FilePath = "src/weather.js"
	js.Code.CompleteFunction = jsGold
	return []release.Record{bench[0], js}
}

func TestRunnerPerLanguage(t *testing.T) {
	bench := mixedBench(t)
	gens := []Generation{
		{SampleID: "SYN-0001", Setting: "s", Model: "m", Completion: bench[0].Code.CompleteFunction},
		{SampleID: "SYN-JS-1", Setting: "s", Model: "m", Completion: "```js\n" + jsGold + "```\n"},
	}
	_, noJS := frontends.For(lang.JavaScript)

	t.Run("a language with no runner is counted, not scored", func(t *testing.T) {
		out := runOrSkip(t, Config{Bench: bench, Generations: gens, Workers: 1})
		reason := "no runner for javascript"
		if noJS != nil {
			reason = "no frontend for javascript"
		}
		if len(out.Results) != 1 || out.Results[0].SampleID != "SYN-0001" {
			t.Fatalf("results %+v, want only the Python sample's", out.Results)
		}
		if out.Summary.Unscored[reason] != 1 {
			t.Errorf("unscored %v, want 1 under %q", out.Summary.Unscored, reason)
		}
		if !strings.Contains(strings.Join(out.Problems, "\n"), reason) {
			t.Errorf("problems %q do not name %q", out.Problems, reason)
		}
		if g := out.Summary.Groups[0]; g.Covered != 1 || g.Expected != 2 {
			t.Errorf("covered %d of %d, want 1 of 2", g.Covered, g.Expected)
		}
	})

	t.Run("each sample runs in its language's runner", func(t *testing.T) {
		if noJS != nil {
			t.Skipf("JavaScript samples need the JavaScript frontend: %v", noJS)
		}
		fake := &fakeRunner{url: "https://weatherly.p.rapidapi.com/current?city=x"}
		out := runOrSkip(t, Config{Bench: bench, Generations: gens, Workers: 1,
			Runners: map[lang.Name]StartRunner{lang.JavaScript: func(context.Context) (Runner, error) { return fake, nil }}})
		if len(out.Results) != 2 || out.Summary.Unscored != nil {
			t.Fatalf("%d results, unscored %v; want both scored", len(out.Results), out.Summary.Unscored)
		}
		if len(fake.codes) != 1 || fake.codes[0] != jsGold {
			t.Errorf("the JavaScript runner ran %q, want the JavaScript code once", fake.codes)
		}
		if !fake.closed {
			t.Error("the JavaScript runner was not closed")
		}
		for _, r := range out.Results {
			if r.Mock != 1 || r.Dep != 1 || r.CodeBLEU < 0.99 {
				t.Errorf("%s: mock %v dep %v codebleu %v, want a full hit", r.SampleID, r.Mock, r.Dep, r.CodeBLEU)
			}
		}
		if out.Summary.Runners["javascript"] != "fake" {
			t.Errorf("runners %v, want the JavaScript runner's isolation", out.Summary.Runners)
		}
	})

	t.Run("a runner that cannot start fails the run", func(t *testing.T) {
		if noJS != nil {
			t.Skipf("JavaScript samples need the JavaScript frontend: %v", noJS)
		}
		cfg := Config{Bench: bench, Generations: gens, Workers: 1, Runners: map[lang.Name]StartRunner{
			lang.JavaScript: func(context.Context) (Runner, error) { return nil, errors.New("no workers") }}}
		cfg.Sandbox.ScratchDir = t.TempDir()
		_, err := Run(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), "start the javascript runner: no workers") {
			t.Errorf("err = %v, want the runner's failure named", err)
		}
	})
}

func TestMixedBenchmarkEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: Python sandbox and JavaScript workers")
	}
	bench := mixedBench(t)
	gens := GoldGenerations(bench)
	// the null baseline's shape (baseline.NullFunction): its client imported, nothing sent
	gens = append(gens,
		Generation{SampleID: bench[0].SampleID, Setting: "null", Model: "null",
			Completion: "import requests\n\n\ndef " + bench[0].FunctionName + "(*args, **kwargs):\n    return None\n"},
		Generation{SampleID: "SYN-JS-1", Setting: "null", Model: "null",
			Completion: "import axios from \"axios\";\n\nasync function currentWeather(...args) {\n  return null;\n}\n"})
	gens = append(gens, Generation{SampleID: "SYN-JS-1", Setting: "broken", Model: "m",
		Completion: "```js\nexport async function currentWeather(city) {\n  return fetch(`https://weatherly.p.rapidapi.com/current?city=${city}`;\n}\n```"})
	out := runOrSkip(t, Config{Bench: bench, Generations: gens, Workers: 2,
		Runners: JavaScriptRunners(jsbox.Options{Workers: 1, Command: []string{os.Args[0], jsbox.WorkerArg}})})
	if len(out.Results) != 5 || out.Summary.Unscored != nil {
		t.Fatalf("%d results, unscored %v; want five", len(out.Results), out.Summary.Unscored)
	}
	for _, r := range out.Results {
		switch r.Setting {
		case "gold":
			if r.Mock != 1 || r.Syntax != 1 || r.Dep != 1 {
				t.Errorf("gold %s (%s): mock %v syntax %v dep %v stage %s requests %+v", r.SampleID, r.Language, r.Mock, r.Syntax, r.Dep, r.FailureStage, r.Requests)
			}
		case "null":
			if r.Syntax != 1 || r.Dep != 1 || r.ExecReq != 0 || r.FailureStage != StageRequest {
				t.Errorf("null %s (%s): syntax %v dep %v execreq %v stage %s; want syntax and dep, no request", r.SampleID, r.Language, r.Syntax, r.Dep, r.ExecReq, r.FailureStage)
			}
		case "broken":
			if r.Syntax != 0 || r.SyntaxLine != 2 || !strings.Contains(r.SyntaxError, "SyntaxError") {
				t.Errorf("broken JavaScript: syntax %v, error %q at line %d; want esbuild's error at line 2", r.Syntax, r.SyntaxError, r.SyntaxLine)
			}
		}
	}
	for _, g := range out.Summary.Groups {
		if g.Setting != "broken" && len(g.ByLanguage) != 2 {
			t.Errorf("group %s: by language %v, want two languages", g.Setting, g.ByLanguage)
		}
	}
}
