package decontam_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sccg/align"
	"sccg/decontam"
	"sccg/lang"
	"sccg/store"
)

// benchStore fills a fresh store with n synthetic candidate functions over 200 APIs
// of 5 endpoints each, in n/5 repositories: 10% exact copies, 10% near copies, 5%
// ToolBench-style templates and 10% with a hard-coded key.
func benchStore(tb testing.TB, n int, seed int64) *store.Store {
	tb.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewSource(seed))
	s, err := store.Open(ctx, filepath.Join(tb.TempDir(), "bench.db"), store.WithClock(func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	words := strings.Fields("alpha beta gamma delta city price quote symbol forecast day hour user item total count " +
		"result value data page limit offset name title text lang units query search match team player score rate")
	word := func() string { return words[rng.Intn(len(words))] }
	type api struct {
		host   string
		routes []string
	}
	apis := make([]api, 200)
	err = s.Update(ctx, func(tx *store.Tx) error {
		for i := range apis {
			a := api{host: fmt.Sprintf("api-%03d.p.rapidapi.com", i)}
			var eps []store.Endpoint
			for j := 0; j < 5; j++ {
				route := fmt.Sprintf("/v1/%s%d/{%s}", word(), j, word())
				if j%2 == 0 {
					route = fmt.Sprintf("/%s/%s%d", word(), word(), j)
				}
				a.routes = append(a.routes, route)
				eps = append(eps, store.Endpoint{Host: a.host, Method: "GET", Route: route, IsCurrent: true,
					Params: []store.Param{{Name: word(), Location: "query", Type: "string"}}})
			}
			apis[i] = a
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: "o", Slug: fmt.Sprintf("api-%03d", i), Host: a.host, CrawledAt: tx.Now()}, eps); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	key := "0884" + "40d910msh" + "ef857391f2fc461p" + "17ae9e" + "jsnaebc918926ff"
	var codes []string
	err = s.Update(ctx, func(tx *store.Tx) error {
		repos := max(n/5, 1)
		for r := 0; r < repos; r++ {
			rid, err := tx.UpsertRepository(ctx, &store.Repository{FullName: fmt.Sprintf("owner%d/repo%d", r%97, r), Source: "github",
				CreatedAt: fmt.Sprintf("20%02d-01-01T00:00:00Z", 10+r%15), FetchedAt: tx.Now()})
			if err != nil {
				return err
			}
			fileID, err := tx.SaveFile(ctx, &store.File{RepoID: rid, Path: fmt.Sprintf("pkg/mod%d.py", r), FoundAt: tx.Now()}, []byte(fmt.Sprint(r)))
			if err != nil {
				return err
			}
			var fns []store.Function
			for k := 0; k < 5 && r*5+k < n; k++ {
				i := r*5 + k
				a := apis[rng.Intn(len(apis))]
				route := a.routes[rng.Intn(len(a.routes))]
				path := strings.NewReplacer("{", "", "}", "").Replace(route)
				name := fmt.Sprintf("%s_%s_%d", word(), word(), i)
				var b strings.Builder
				keyExpr := `os.environ.get("RAPIDAPI_KEY")`
				if rng.Intn(10) == 0 {
					keyExpr = `"` + key + `"`
				}
				params := "q"
				if rng.Intn(20) == 0 {
					params = `q, toolbench_rapidapi_key: str = "088440d910"`
				}
				fmt.Fprintf(&b, "import os\nimport requests\n\n\ndef %s(%s):\n    \"\"\"%s the %s of a %s.\"\"\"\n", name, params, word(), word(), word())
				fmt.Fprintf(&b, "    url = \"https://%s%s\"\n", a.host, path)
				fmt.Fprintf(&b, "    headers = {\"X-RapidAPI-Key\": %s, \"X-RapidAPI-Host\": \"%s\"}\n", keyExpr, a.host)
				for l := 0; l < 4+rng.Intn(12); l++ {
					fmt.Fprintf(&b, "    %s_%d = %s(%s, %q) + %d\n", word(), l, word(), word(), word(), rng.Intn(1000))
				}
				fmt.Fprintf(&b, "    r = requests.get(url, headers=headers, params={%q: q})\n    r.raise_for_status()\n    return r.json()[%q]\n", word(), word())
				code := b.String()
				switch x := rng.Intn(10); {
				case x == 0 && len(codes) > 0: // exact copy
					code = codes[rng.Intn(len(codes))]
				case x == 1 && len(codes) > 0: // near copy: one line added
					code = codes[rng.Intn(len(codes))] + "    # done\n    print(\"ok\")\n"
				}
				codes = append(codes, code)
				host, p := hostPath(code)
				facts := lang.Facts{Calls: []lang.Call{{Line: 8, Library: "requests", Callee: "requests.get", Method: "GET",
					URLExpr: "url", URL: "https://" + host + p, URLResolved: true, Scheme: "https", Host: host, Path: p,
					HasRapidAPIHost: true, RapidAPIHost: host, HasRapidAPIKey: true,
					Params: []lang.CallParam{{Name: "q", Location: "query"}}}}, Parameters: []string{"q"}, SyntaxOK: true}
				fj, _ := json.Marshal(facts)
				fns = append(fns, store.Function{Name: name, QualName: name, StartLine: 5, EndLine: 20, Source: code, Code: code,
					CodeHash: store.HashBlob([]byte(code)), SyntaxOK: true, Status: store.FunctionCandidate,
					Quality: float64(rng.Intn(100)), Facts: fj})
			}
			if err := tx.SaveFunctions(ctx, fileID, fns); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// hostPath reads the URL literal back out of generated code.
func hostPath(code string) (string, string) {
	i := strings.Index(code, "https://")
	rest := code[i+len("https://"):]
	rest = rest[:strings.IndexByte(rest, '"')]
	j := strings.IndexByte(rest, '/')
	return rest[:j], rest[j:]
}

// peakHeap samples the live heap until stop is closed and returns the maximum.
func peakHeap(stop <-chan struct{}) func() uint64 {
	var peak atomic.Uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { wg.Wait(); return peak.Load() }
}

// BenchmarkAlignDecontam10k runs align and decontam over 10,000 synthetic
// candidates in a fresh store per iteration and reports seconds and the peak heap.
func BenchmarkAlignDecontam10k(b *testing.B) {
	const n = 10000
	ctx := context.Background()
	var secs, alignSecs, peakMB float64
	var lastDedup align.DedupStats
	var kept int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := benchStore(b, n, int64(i+1))
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		stop := make(chan struct{})
		peak := peakHeap(stop)
		b.StartTimer()
		start := time.Now()
		ares, err := align.Run(ctx, s, align.Options{})
		if err != nil {
			b.Fatal(err)
		}
		alignSecs += time.Since(start).Seconds()
		dres, err := decontam.Run(ctx, s, decontam.Options{})
		if err != nil {
			b.Fatal(err)
		}
		secs += time.Since(start).Seconds()
		b.StopTimer()
		close(stop)
		peakMB += float64(peak()-min(base.HeapAlloc, peak())) / (1 << 20)
		lastDedup, kept = ares.Dedup, dres.Kept
		if ares.Aligned != n {
			b.Fatalf("aligned %d of %d synthetic functions", ares.Aligned, n)
		}
	}
	b.ReportMetric(secs/float64(b.N), "s/10k")
	b.ReportMetric(alignSecs/float64(b.N), "align-s/10k")
	b.ReportMetric(peakMB/float64(b.N), "peak-heap-MB")
	b.ReportMetric(float64(lastDedup.LSH.CandidatePairs), "lsh-pairs")
	b.ReportMetric(float64(lastDedup.Clusters), "clusters")
	b.ReportMetric(float64(kept), "kept")
}
