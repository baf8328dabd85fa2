package redact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"sccg/internal/storetest"
	"sccg/lang/python"
	"sccg/llm"
	"sccg/store"
)

// seedKept stores n kept functions, each calling its own API, as decontam leaves
// them; the first has a docstring that states its goal.
func seedKept(t *testing.T, s *store.Store, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		host := fmt.Sprintf("api-%c%d.p.rapidapi.com", 'a'+i, i)
		doc := ""
		if i == 0 {
			doc = "    \"\"\"Return the current weather of a city.\"\"\"\n"
		}
		code := fmt.Sprintf("import requests\n\n\ndef fetch_thing_%d(city):\n%s    return requests.get(\"https://%s/v1/things\", params={\"city\": city, \"units\": \"metric\"}).json()\n", i, doc, host)
		res, err := python.Extract(ctx, []byte(code), python.Options{})
		if err != nil || len(res.Functions) != 1 {
			t.Fatalf("extract: %v", err)
		}
		pf := res.Functions[0]
		facts, _ := json.Marshal(pf.Facts)
		var fid int64
		err = s.Update(ctx, func(tx *store.Tx) error {
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: "o", Slug: fmt.Sprintf("api-%c%d", 'a'+i, i), Title: "Things", Host: host,
				CrawledAt: tx.Now()}, []store.Endpoint{{Host: host, Method: "GET", Route: "/v1/things", IsCurrent: true}}); err != nil {
				return err
			}
			rid, err := tx.UpsertRepository(ctx, &store.Repository{FullName: fmt.Sprintf("dev/r%d", i), Source: "local", FetchedAt: tx.Now()})
			if err != nil {
				return err
			}
			file, err := tx.SaveFile(ctx, &store.File{RepoID: rid, Path: "a.py", FoundAt: tx.Now()}, []byte(code))
			if err != nil {
				return err
			}
			fns := []store.Function{{Name: pf.Name, QualName: pf.QualName, StartLine: pf.StartLine, EndLine: pf.EndLine, Source: pf.Source,
				Code: pf.Code, CodeHash: pf.CodeHash, Status: store.FunctionCandidate, Facts: facts}}
			if err := tx.SaveFunctions(ctx, file, fns); err != nil {
				return err
			}
			fid = fns[0].ID
			return tx.SaveAlignments(ctx, fid, []store.Alignment{{CallIndex: 0, Host: host, Route: "/v1/things", Method: "GET", DocMatchType: "url",
				EndpointSource: "documented", ParamsSource: "observed", IsPrimary: true, Params: []store.Param{{Name: "city", Location: "query"}}}})
		})
		if err != nil {
			t.Fatal(err)
		}
		as, err := s.Alignments(ctx, fid)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Update(ctx, func(tx *store.Tx) error {
			return tx.SaveKept(ctx, &store.KeptFunction{FunctionID: fid, Alignment: as[0], Code: pf.Code, Source: pf.Source, Facts: facts, InputHash: "h"})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// fakeModel answers every prompt with one clean intent, counting calls; after
// cancelAt calls it cancels the run's context.
type fakeModel struct {
	mu       sync.Mutex
	calls    int
	cancelAt int
	cancel   context.CancelFunc
	prompts  []string
}

func (f *fakeModel) Chat(ctx context.Context, req llm.ChatRequest) (*llm.ChatResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.prompts = append(f.prompts, req.Messages[len(req.Messages)-1].Content)
	if f.cancelAt > 0 && f.calls == f.cancelAt {
		f.cancel()
		return nil, ctx.Err()
	}
	return &llm.ChatResponse{Model: "fake", Choices: []llm.Choice{{Text: "Get the current things of a given city."}}}, nil
}

func TestRunResumesAfterCancel(t *testing.T) {
	ctx := context.Background()
	ref := storetest.Open(t)
	seedKept(t, ref, 6)
	if _, err := Run(ctx, ref, Options{LLM: &fakeModel{}, Model: "fake", Batch: 2, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tables := []string{"intents", "masked", "decisions"}
	want := storetest.MustDump(t, ref, tables...)

	s := storetest.Open(t)
	seedKept(t, s, 6)
	cctx, cancel := context.WithCancel(ctx)
	fm := &fakeModel{cancelAt: 4, cancel: cancel}
	if _, err := Run(cctx, s, Options{LLM: fm, Model: "fake", Batch: 2, Workers: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: err = %v, want context.Canceled", err)
	}
	done, _ := s.IntentsByFunction(ctx)
	if len(done) == 0 || len(done) >= 6 {
		t.Fatalf("a run cancelled mid-way kept the intents of %d functions, want the finished batches only", len(done))
	}
	fm2 := &fakeModel{}
	res, err := Run(ctx, s, Options{LLM: fm2, Model: "fake", Batch: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	// the function with a docstring is in the first batch and asks nothing; every
	// other function asks once
	if res.Reused != len(done) || fm2.calls != 6-len(done) {
		t.Errorf("resumed run reused %d and asked %d times; want %d reused and the rest asked", res.Reused, fm2.calls, len(done))
	}
	if got := storetest.MustDump(t, s, tables...); got != want {
		t.Errorf("a resumed run differs from an uninterrupted one:\n%s\nvs\n%s", got, want)
	}
	res, err = Run(ctx, s, Options{LLM: fm2, Model: "fake", Batch: 2, Workers: 1})
	if err != nil || res.Reused != 6 || res.Attempts != 0 {
		t.Errorf("a third run: %+v, %v; want everything reused", res, err)
	}
	for _, p := range append(fm.prompts, fm2.prompts...) {
		if strings.Contains(p, ".p.rapidapi.com") || strings.Contains(p, "/v1/things") {
			t.Errorf("a prompt gives the ground truth away:\n%s", p)
		}
	}
}

func TestRunRefusesABadPolicy(t *testing.T) {
	if _, err := Run(context.Background(), storetest.Open(t), Options{OnLeak: "sometimes"}); err == nil {
		t.Fatal("an unknown --on-leak policy was accepted")
	}
}
