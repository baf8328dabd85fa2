package evaluate

import (
	"strings"
	"testing"
)

// A JavaScript or TypeScript sample's completions are not run as Python: they
// are left out, counted under their reason, and named among the problems.
func TestRunSkipsLanguagesWithoutRunner(t *testing.T) {
	bench, gens, _ := readSynthetic(t)
	js := bench[0]
	js.SampleID, js.Language = "SYN-JS-1", "javascript"
	js.Code.CompleteFunction = "async function f() { return fetch('https://h.p.rapidapi.com/x'); }"
	ts := js
	ts.SampleID, ts.Language = "SYN-TS-1", "typescript"
	bench = append(bench, js, ts)
	gens = append(gens, Generation{SampleID: "SYN-JS-1", Setting: "intent", Model: "m", Completion: js.Code.CompleteFunction},
		Generation{SampleID: "SYN-JS-1", Setting: "intent", Model: "m", SampleIndex: 1, Completion: "x"},
		Generation{SampleID: "SYN-TS-1", Setting: "intent", Model: "m", Completion: ts.Code.CompleteFunction})
	out := runOrSkip(t, Config{Bench: bench, Generations: gens})
	if out.Skipped["no runner for javascript yet"] != 2 || out.Skipped["no runner for typescript yet"] != 1 {
		t.Errorf("skipped %v, want 2 javascript and 1 typescript", out.Skipped)
	}
	for _, r := range out.Results {
		if strings.HasPrefix(r.SampleID, "SYN-JS") || strings.HasPrefix(r.SampleID, "SYN-TS") {
			t.Errorf("a result for %s: %+v", r.SampleID, r)
		}
	}
	if !strings.Contains(strings.Join(out.Problems, "\n"), "2 completion(s) not scored: no runner for javascript yet") {
		t.Errorf("problems %q, want the skipped completions named", out.Problems)
	}
	if out.Counts()["skipped"] != 3 {
		t.Errorf("counts %v, want skipped=3", out.Counts())
	}
}
