package mine_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"sccg/extract"
	"sccg/internal/replay"
	"sccg/internal/storetest"
	"sccg/mine"
	"sccg/store"
)

// mineCatalogStore opens a store holding the APIs of the replay catalog, the ones the
// embedded GitHub corpus calls.
func mineCatalogStore(tb testing.TB, clock *fakeClock) *store.Store {
	tb.Helper()
	ctx := context.Background()
	b, err := os.ReadFile("../internal/replay/testdata/catalog.json")
	if err != nil {
		tb.Fatal(err)
	}
	var cat struct {
		APIs []struct {
			Owner, Slug, Host string
			Endpoints         []struct{ Method, Route string }
		}
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		tb.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(tb.TempDir(), "bench.db"), store.WithClock(clock.Now))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	err = st.Update(ctx, func(tx *store.Tx) error {
		for _, a := range cat.APIs {
			var eps []store.Endpoint
			for _, e := range a.Endpoints {
				eps = append(eps, store.Endpoint{IsCurrent: true, Host: a.Host, Method: e.Method, Route: e.Route})
			}
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: a.Owner, Slug: a.Slug, Host: a.Host}, eps); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// mineEmbedded mines the embedded corpus (with its scripted faults) into a fresh store.
func mineEmbedded(tb testing.TB) (*store.Store, *replay.Server, *mine.Stats) {
	tb.Helper()
	clock := newFakeClock()
	st := mineCatalogStore(tb, clock)
	h, err := replay.GitHub(replay.GitHubCorpus(), replay.GitHubOptions{Now: clock.Now})
	if err != nil {
		tb.Fatal(err)
	}
	srv := replay.Start(h)
	tb.Cleanup(srv.Close)
	stats, err := mine.Mine(context.Background(), st, mine.Options{APIBase: srv.URL, Tokens: []string{"bench"},
		HTTPClient: srv.Client(), Clock: clock, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return st, srv, stats
}

// embeddedTables are the tables a mine of the embedded corpus fills.
var embeddedTables = []string{"repositories", "files", "file_hits", "blobs"}

// embeddedMine is what the tests read of one uninterrupted mine of the embedded
// corpus: its stats, the server's log and the store's contents.
type embeddedMine struct {
	stats    *mine.Stats
	repeats  []string         // requests the server was sent more than once
	requests int              // requests the server was sent
	counts   map[string]int64 // the mine stage's decisions by reason
	dump     string           // embeddedTables of the store
}

// embedded is the mine of the embedded corpus (3 s under the race detector) run once
// for the tests that read it; its store and server end with the test that ran it.
var embedded struct {
	once sync.Once
	run  *embeddedMine
}

// mineEmbeddedOnce returns the shared mine of the embedded corpus.
func mineEmbeddedOnce(t *testing.T) *embeddedMine {
	t.Helper()
	embedded.once.Do(func() {
		st, srv, stats := mineEmbedded(t)
		counts, err := st.DecisionCounts(context.Background(), mine.Stage)
		if err != nil {
			t.Fatal(err)
		}
		embedded.run = &embeddedMine{stats: stats, repeats: srv.Log.Repeats(), requests: srv.Log.Len(),
			counts: counts, dump: storetest.MustDump(t, st, embeddedTables...)}
	})
	if embedded.run == nil {
		t.Fatal("the shared mine of the embedded corpus failed (see the test that ran it first)")
	}
	return embedded.run
}

// The embedded corpus mines without a repeated or wasted request, and every fault it
// scripts ends in a recorded decision.
func TestMineEmbeddedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("mines the whole embedded corpus")
	}
	run := mineEmbeddedOnce(t)
	stats := run.stats
	if reps := run.repeats; len(reps) > 0 {
		t.Errorf("repeated requests: %v", reps)
	}
	if stats.Wasted != 0 {
		t.Errorf("wasted %d requests (%+v)", stats.Wasted, stats)
	}
	if stats.Stored == 0 {
		t.Fatal("nothing stored")
	}
	all := strings.Join(slices.Collect(maps.Keys(run.counts)), "\n")
	for _, want := range []string{"binary file", mine.NotUTF8, "too large", "451", "repository unavailable (404", "split: saturated query"} {
		if !strings.Contains(all, want) {
			t.Errorf("no decision mentions %q; decisions:\n%s", want, all)
		}
	}
}

// BenchmarkMineReplay mines the embedded corpus and reports requests per stored file,
// per file that yields a candidate function, and the requests wasted.
func BenchmarkMineReplay(b *testing.B) {
	var stats *mine.Stats
	var st *store.Store
	for i := 0; i < b.N; i++ {
		st, _, stats = mineEmbedded(b)
	}
	b.StopTimer()
	ctx := context.Background()
	if _, err := extract.Run(ctx, st, extract.Options{}); err != nil {
		b.Fatal(err)
	}
	fns, err := st.Functions(ctx, store.FunctionCandidate)
	if err != nil {
		b.Fatal(err)
	}
	withCandidate := map[int64]bool{}
	for _, f := range fns {
		withCandidate[f.FileID] = true
	}
	b.ReportMetric(float64(stats.Requests), "requests")
	b.ReportMetric(float64(stats.Stored), "stored-files")
	b.ReportMetric(float64(stats.Requests)/float64(max(stats.Stored, 1)), "requests/stored-file")
	b.ReportMetric(float64(stats.Requests)/float64(max(len(withCandidate), 1)), "requests/candidate-file")
	b.ReportMetric(float64(stats.Wasted), "wasted-requests")
}

// Killing a run over the embedded corpus (faults included) and running it again
// stores exactly what one uninterrupted run stores.
func TestMineEmbeddedCorpusResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("mines the whole embedded corpus twice")
	}
	ctx := context.Background()
	run := mineEmbeddedOnce(t)
	wantDump := run.dump
	k := run.requests / 2

	clock := newFakeClock()
	st := mineCatalogStore(t, clock)
	h, err := replay.GitHub(replay.GitHubCorpus(), replay.GitHubOptions{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := replay.Start(h)
	defer srv.Close()
	opts := mine.Options{APIBase: srv.URL, Tokens: []string{"bench"}, HTTPClient: srv.Client(), Clock: clock, Seed: 1}
	kctx, cancel := context.WithCancel(ctx)
	defer cancel()
	killed := opts
	killed.HTTPClient = &http.Client{Transport: &cancelAfter{n: k, cancel: cancel, next: srv.Client().Transport}}
	if _, err := mine.Mine(kctx, st, killed); !errors.Is(err, context.Canceled) {
		t.Fatalf("killed run: got %v, want context.Canceled", err)
	}
	if _, err := mine.Mine(ctx, st, opts); err != nil {
		t.Fatal(err)
	}
	got := storetest.MustDump(t, st, embeddedTables...)
	if got != wantDump {
		t.Errorf("resumed store differs from an uninterrupted run")
	}
}
