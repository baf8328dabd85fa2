package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/evaluate"
	"sccg/store"
)

// fieldWorld is a synthetic hub where one field of every endpoint document says
// what the endpoint does and another field is noise that names other
// endpoints' words: a ranker must learn to trust the first. Each endpoint owns
// two words no other endpoint owns; its intent is those words among filler.
type fieldWorld struct {
	corpus  *Corpus
	queries []Query // one per endpoint, in API order
	apis    []string
}

// newFieldWorld makes apis APIs of perAPI endpoints. With namesSay, an
// endpoint's name holds its own words and its description three of other
// endpoints' words twice each; otherwise its description holds its own words
// and its name the other endpoints' words.
func newFieldWorld(t testing.TB, apis, perAPI int, namesSay bool) *fieldWorld {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	n := apis * perAPI
	own := make([][2]string, n)
	for i := range own {
		own[i] = [2]string{fmt.Sprintf("zork%03d", i), fmt.Sprintf("quib%03d", i)}
	}
	filler := strings.Fields("fetch the result for a given item and return it from the service")
	w := &fieldWorld{}
	var sapis []store.API
	var eps []store.Endpoint
	for a := range apis {
		host := fmt.Sprintf("svc%02d.p.rapidapi.com", a)
		w.apis = append(w.apis, host)
		sapis = append(sapis, store.API{ID: int64(a + 1), Title: fmt.Sprintf("Service %02d", a), Category: "Data"})
		for e := range perAPI {
			i := a*perAPI + e
			var noise []string
			for range 3 {
				j := rng.IntN(n)
				for j/perAPI == a {
					j = rng.IntN(n)
				}
				noise = append(noise, own[j][0], own[j][1], own[j][0], own[j][1])
			}
			name, desc := own[i][0]+" "+own[i][1], strings.Join(noise, " ")
			if !namesSay {
				name, desc = desc, "Returns the "+own[i][0]+" "+own[i][1]+" of an item."
			}
			eps = append(eps, store.Endpoint{APIID: int64(a + 1), Host: host, Method: "GET", Route: fmt.Sprintf("/e%d", e),
				Name: name, Description: desc, Key: fmt.Sprintf("ep-%d", i)})
			words := append(slices.Clone(filler[:3+rng.IntN(5)]), own[i][0], own[i][1])
			rng.Shuffle(len(words), func(x, y int) { words[x], words[y] = words[y], words[x] })
			truth := evaluate.GroundTruth{Hosts: []string{host}, Route: fmt.Sprintf("/e%d", e), Method: "GET"}
			w.queries = append(w.queries, Query{SampleID: fmt.Sprintf("S%03d", i), DocMatchType: "url", Text: strings.Join(words, " "),
				TextSource: "comments", Truth: truth, EndpointID: fmt.Sprintf("ep-%d", i)})
		}
	}
	c, err := FromEndpoints(SourceDocs, sapis, eps)
	if err != nil {
		t.Fatal(err)
	}
	w.corpus = c
	return w
}

// split returns the queries of the first half of the APIs and of the rest.
func (w *fieldWorld) split() (train, test []Query) {
	half := w.apis[:len(w.apis)/2]
	for _, q := range w.queries {
		if slices.Contains(half, q.Truth.Hosts[0]) {
			train = append(train, q)
		} else {
			test = append(test, q)
		}
	}
	return train, test
}

func weightOf(m *RankerModel, feats ...string) float64 {
	s := 0.0
	for _, f := range feats {
		s += m.Weights[featureIndex(f)]
	}
	return s
}

func TestLearnedFindsTheFieldThatSpeaks(t *testing.T) {
	ctx := context.Background()
	nameFeats := []string{FeatName, FeatNameInQuery}
	descFeats := []string{FeatDesc}
	tests := []struct {
		name          string
		namesSay      bool
		heavy, light  []string
		minLearnedMRR float64
	}{
		{"names say what an endpoint does, descriptions are noise", true, nameFeats, descFeats, 0.95},
		{"descriptions say it, names are noise", false, descFeats, nameFeats, 0.95},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newFieldWorld(t, 16, 5, tc.namesSay)
			train, test := w.split()
			m, err := Train(ctx, w.corpus, train, TrainOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if h, l := weightOf(m, tc.heavy...), weightOf(m, tc.light...); h <= l {
				t.Errorf("weight of %v = %.3f, of %v = %.3f: want the field that speaks heavier (weights %v)", tc.heavy, h, tc.light, l, m.TopWeights(8))
			}
			l, err := NewLearned(w.corpus, m)
			if err != nil {
				t.Fatal(err)
			}
			// the test APIs were never trained on
			for _, q := range test {
				if slices.Contains(m.Training.APIHosts, q.Truth.Hosts[0]) {
					t.Fatalf("test API %s among the training APIs", q.Truth.Hosts[0])
				}
			}
			learned, err := Evaluate(ctx, Config{Corpus: w.corpus, Retriever: l, Name: NameLearned, Queries: test})
			if err != nil {
				t.Fatal(err)
			}
			bm25, err := Evaluate(ctx, Config{Corpus: w.corpus, Retriever: NewBM25(w.corpus, DefaultBM25), Name: NameBM25, Queries: test})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("held-out MRR learned %.3f bm25 %.3f; weights %v", learned.Overall.MRR, bm25.Overall.MRR, m.TopWeights(5))
			if got := learned.Overall.MRR; got < tc.minLearnedMRR || got <= bm25.Overall.MRR {
				t.Errorf("held-out MRR: learned %.3f, bm25 %.3f; want learned ≥ %.2f and above bm25", got, bm25.Overall.MRR, tc.minLearnedMRR)
			}
		})
	}
}

func TestTrainIsDeterministic(t *testing.T) {
	ctx := context.Background()
	w := newFieldWorld(t, 10, 4, true)
	a, err := Train(ctx, w.corpus, w.queries, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(ctx, w.corpus, w.queries, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Weights, b.Weights) || a.Lambda != b.Lambda {
		t.Errorf("two trainings differ:\n%v λ %g\n%v λ %g", a.Weights, a.Lambda, b.Weights, b.Lambda)
	}
	if a.Training.Folds != DefaultTrainFolds || len(a.Training.Lambdas) != len(Lambdas) {
		t.Errorf("training info %+v: want λ chosen over %d strengths by %d folds", a.Training, len(Lambdas), DefaultTrainFolds)
	}
}

func TestTrainCountsWhatItLeavesOut(t *testing.T) {
	ctx := context.Background()
	w := newFieldWorld(t, 4, 3, true)
	qs := slices.Clone(w.queries)
	noEndpoint := qs[0]
	noEndpoint.SampleID, noEndpoint.Truth = "host-only", evaluate.GroundTruth{Hosts: noEndpoint.Truth.Hosts, Method: "GET"}
	missing := qs[1]
	missing.SampleID, missing.EndpointID = "missing", ""
	missing.Truth.Route = "/not/documented"
	qs = append(qs, noEndpoint, missing)
	m, err := Train(ctx, w.corpus, qs, TrainOptions{Lambda: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{DropNoEndpoint: 1, DropNotInCorpus: 1}
	if got := m.Training.Dropped; len(got) != 2 || got[DropNoEndpoint] != 1 || got[DropNotInCorpus] != 1 {
		t.Errorf("dropped %v, want %v", got, want)
	}
	if m.Training.Samples != len(w.queries) || m.Training.APIs != 4 || m.Lambda != 0.01 || m.Training.Folds != 0 {
		t.Errorf("training info %+v, λ %g", m.Training, m.Lambda)
	}
	if _, err := Train(ctx, w.corpus, []Query{noEndpoint, missing}, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "no training sample") {
		t.Errorf("training on no usable sample: %v", err)
	}
}

func TestLearnedRanksEveryDocument(t *testing.T) {
	// A query sharing no term with the corpus still gets a ranking (by the priors);
	// BM25 returns nothing for it.
	ctx := context.Background()
	w := newFieldWorld(t, 4, 3, true)
	m, err := Train(ctx, w.corpus, w.queries, TrainOptions{Lambda: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLearned(w.corpus, m)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := l.Retrieve(ctx, "nothing here matches", 5)
	if err != nil || len(hits) != 5 {
		t.Errorf("hits %v, err %v: want 5", hits, err)
	}
	if bm := NewBM25(w.corpus, DefaultBM25).search(Tokenize("nothing here matches"), 5); len(bm) != 0 {
		t.Errorf("bm25 hits %v, want none", bm)
	}
}

func TestRankerModelCheck(t *testing.T) {
	ctx := context.Background()
	w := newFieldWorld(t, 4, 3, true)
	m, err := Train(ctx, w.corpus, w.queries, TrainOptions{Lambda: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	old := *m
	old.Features = old.Features[1:]
	old.Weights = old.Weights[1:]
	if _, err := NewLearned(w.corpus, &old); err == nil || !strings.Contains(err.Error(), "train it again") {
		t.Errorf("a model of other features: %v, want an error saying to train it again", err)
	}
	if _, err := New(ctx, NameLearned, w.corpus, Options{}); !errors.Is(err, ErrNeedsRanker) {
		t.Errorf("learned without a model: %v, want ErrNeedsRanker", err)
	}
}

func TestTermWeights(t *testing.T) {
	q := func(api, text string) labeled { return labeled{q: Query{Text: text}, api: api} }
	tw := termWeightsOf([]labeled{q("a", "fetch weather data"), q("b", "fetch stock quotes"), q("c", "fetch data of a movie"), q("c", "weather")})
	// three APIs: fetch in all three, data and weather in two; the rest in one
	// (c's weather and a's are two APIs).
	tests := []struct {
		term string
		want float64
		in   bool
	}{
		{"fetch", 0.2075, true}, // ln(4/3)/ln 4
		{"data", 0.5, true},     // ln(4/2)/ln 4
		{"weather", 0.5, true},
		{"stock", 0, false},
		{"movie", 0, false},
	}
	for _, tc := range tests {
		got, ok := tw[tc.term]
		if ok != tc.in || (ok && (got < tc.want-1e-3 || got > tc.want+1e-3)) {
			t.Errorf("weight of %q = %.4f (listed %v), want %.4f (listed %v)", tc.term, got, ok, tc.want, tc.in)
		}
	}
}

func TestCrossValidateHoldsOutAPIs(t *testing.T) {
	ctx := context.Background()
	w := newFieldWorld(t, 10, 3, true)
	rep, folds, err := CrossValidate(ctx, w.corpus, w.queries, 5, TrainOptions{Lambda: 0.03})
	if err != nil {
		t.Fatal(err)
	}
	if len(folds) != 5 || rep.Queries != len(w.queries) {
		t.Fatalf("%d folds, %d queries scored; want 5 and %d", len(folds), rep.Queries, len(w.queries))
	}
	seen := map[string]bool{}
	for i, f := range folds {
		for _, a := range f.APIs {
			if seen[a] {
				t.Errorf("API %s held out twice", a)
			}
			seen[a] = true
			if slices.Contains(f.Model.Training.APIHosts, a) {
				t.Errorf("fold %d holds out %s and trains on it", i, a)
			}
		}
	}
	if len(seen) != 10 || !strings.HasPrefix(rep.Retriever, NameLearned+" (cv 5 by API)") {
		t.Errorf("%d APIs held out, retriever %q", len(seen), rep.Retriever)
	}
	if _, _, err := CrossValidate(ctx, w.corpus, w.queries[:3], 5, TrainOptions{}); err == nil {
		t.Error("cross-validation over one API: want an error")
	}
}

func TestTrainStored(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := StoredRanker(ctx, st, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("empty store: %v, want ErrNotFound", err)
	}
	w := newFieldWorld(t, 4, 3, true)
	o := TrainOptions{Lambda: 0.1, Source: "train.json", DocsSource: SourceDocs}
	first, err := TrainStored(ctx, st, w.corpus, w.queries, o)
	if err != nil || first.Reused {
		t.Fatalf("first training: %+v, %v", first, err)
	}
	again, err := TrainStored(ctx, st, w.corpus, w.queries, o)
	if err != nil || !again.Reused || again.ID != first.ID || !slices.Equal(again.Model.Weights, first.Model.Weights) {
		t.Fatalf("second training: %+v, %v; want the stored model %d", again, err, first.ID)
	}
	other, err := TrainStored(ctx, st, w.corpus, w.queries[1:], o)
	if err != nil || other.Reused || other.ID == first.ID {
		t.Fatalf("training on other samples: %+v, %v; want a new model", other, err)
	}
	latest, err := StoredRanker(ctx, st, 0)
	if err != nil || latest.ID != other.ID {
		t.Errorf("latest ranker %+v, %v; want %d", latest, err, other.ID)
	}
	runs, err := st.LastRuns(ctx, 10)
	n := 0
	for _, r := range runs {
		if r.Stage == store.StageTrainRanker && r.Status == store.RunOK && r.Counts["samples"] > 0 {
			n++
		}
	}
	if err != nil || n != 2 {
		t.Errorf("%d train-ranker runs (%v), want 2: a reused model is not trained again", n, err)
	}
}
