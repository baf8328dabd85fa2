package retrieve

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"sccg/evaluate/sandbox"
	"sccg/lang"
)

// urlRunner answers every run with one GET to its URL and keeps what it ran.
type urlRunner struct {
	url string
	mu  sync.Mutex
	ran []string
}

func (u *urlRunner) Run(_ context.Context, code, function string) (sandbox.Result, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.ran = append(u.ran, function)
	return sandbox.Result{Status: sandbox.StatusOK, Requests: []sandbox.Request{{Lib: "fetch", Method: "GET", URL: u.url}}}, nil
}

// Each gold code runs in its language's runner; a language without one is
// counted and its query keeps no calls.
func TestAddGoldCallsPerLanguage(t *testing.T) {
	py := &urlRunner{url: "https://a.p.rapidapi.com/py"}
	js := &urlRunner{url: "https://a.p.rapidapi.com/js"}
	qs := []Query{
		{SampleID: "P", Code: "def f(): pass", Function: "f", Language: lang.Python},
		{SampleID: "J", Code: "function g() {}", Function: "g", Language: lang.JavaScript},
		{SampleID: "T", Code: "function h(): void {}", Function: "h", Language: lang.TypeScript},
		{SampleID: "E", Function: "e", Language: lang.JavaScript}, // no gold code: nothing to run
	}
	if got := Languages(qs); !reflect.DeepEqual(got, []lang.Name{lang.JavaScript, lang.Python, lang.TypeScript}) {
		t.Errorf("languages %v", got)
	}
	unrun, err := AddGoldCalls(context.Background(), map[lang.Name]GoldRunner{lang.Python: py, lang.JavaScript: js}, qs, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(unrun, map[lang.Name]int{lang.TypeScript: 1}) {
		t.Errorf("unrun %v, want one TypeScript query", unrun)
	}
	if !reflect.DeepEqual(py.ran, []string{"f"}) || !reflect.DeepEqual(js.ran, []string{"g"}) {
		t.Errorf("python ran %v, javascript ran %v", py.ran, js.ran)
	}
	if len(qs[0].Called) != 1 || qs[0].Called[0].Path != "/py" || len(qs[1].Called) != 1 || qs[1].Called[0].Path != "/js" {
		t.Errorf("called %+v and %+v", qs[0].Called, qs[1].Called)
	}
	if len(qs[2].Called) != 0 || len(qs[3].Called) != 0 {
		t.Errorf("unrun queries got calls: %+v %+v", qs[2].Called, qs[3].Called)
	}
}
