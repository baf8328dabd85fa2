package replay

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestLogRecordsAndFindsRepeats(t *testing.T) {
	calls := 0
	s := Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Path == "/flaky" && calls == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Write(b)
	}))
	defer s.Close()
	for _, p := range []string{"/flaky", "/flaky", "/a", "/a?x=1", "/a"} {
		resp, err := http.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	resp, err := http.Post(s.URL+"/gql", "application/json", strings.NewReader(`{"q":1}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != `{"q":1}` {
		t.Fatalf("handler saw body %q, want it passed through", got)
	}
	if s.Log.Len() != 6 {
		t.Fatalf("logged %d requests, want 6", s.Log.Len())
	}
	if reps := s.Log.Repeats(); len(reps) != 1 || reps[0] != "2x GET /a" {
		t.Fatalf("repeats = %v, want [2x GET /a] (the 429 retry is not a repeat)", reps)
	}
	if last := s.Log.All()[5]; last.Body != `{"q":1}` || last.Status != 200 {
		t.Fatalf("last request logged as %+v", last)
	}
}
