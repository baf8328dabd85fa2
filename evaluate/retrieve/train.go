package retrieve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
)

// RankerVersion is the version of the learned ranker's features and training; a
// model of another version is refused (train it again).
const RankerVersion = 1

// RankerModel is a trained learned ranker: a weight per feature and how it was
// trained. It is what the store keeps.
type RankerModel struct {
	Version  int         `json:"version"`
	Features []string    `json:"features"`
	Weights  []float64   `json:"weights"`
	BM25     BM25Options `json:"bm25"`
	// Lambda is the strength of the pull toward the prior weights (BM25 alone).
	Lambda float64 `json:"lambda"`
	// TermWeights are the query terms that count for less than 1 in the weighted
	// features: those the training intents of several APIs use (termWeightsOf).
	TermWeights map[string]float64 `json:"term_weights,omitempty"`
	Training    TrainInfo          `json:"training"`
}

// TrainInfo says what a model was trained on and how it went.
type TrainInfo struct {
	// Source names the training samples (a file); DocsSource where the documents
	// came from (SourceDocs, or SourceBench: the samples' own api_metadata).
	Source     string `json:"source"`
	DocsSource string `json:"docs_source"`
	Documents  int    `json:"documents"`
	// Samples are the samples trained on; APIs their distinct APIs (hosts).
	Samples int `json:"samples"`
	APIs    int `json:"apis"`
	// APIHosts are the hosts of those APIs: a benchmark scored with the model
	// should have none of them (splits are by API).
	APIHosts []string `json:"api_hosts"`
	// Dropped counts the samples left out, by why.
	Dropped map[string]int `json:"dropped,omitempty"`
	// Candidates is how many documents each sample was ranked against (the whole
	// corpus up to MaxTrainCandidates).
	Candidates int `json:"candidates"`
	Iterations int `json:"iterations"`
	// Loss is the final training loss; TrainMRR the MRR of the labeled endpoint on
	// the training samples themselves (an optimistic figure: see Lambdas).
	Loss     float64 `json:"loss"`
	TrainMRR float64 `json:"train_mrr"`
	// Lambdas is the MRR of held-out APIs for each strength tried, when the
	// strength was chosen by cross-validation by API inside the training samples.
	Lambdas []LambdaScore `json:"lambdas,omitempty"`
	Folds   int           `json:"folds,omitempty"`
}

// LambdaScore is the held-out MRR of one regularization strength.
type LambdaScore struct {
	Lambda float64 `json:"lambda"`
	MRR    float64 `json:"mrr"`
}

// The reasons a training sample is left out.
const (
	DropNoEndpoint  = "the label names no endpoint"
	DropNotInCorpus = "the labeled endpoint is not among the training documents"
)

// check refuses a model this sccg cannot apply.
func (m *RankerModel) check() error {
	if m.Version != RankerVersion || !slices.Equal(m.Features, LearnedFeatures) || len(m.Weights) != len(LearnedFeatures) {
		return fmt.Errorf("%s: the model was trained by another version of sccg (ranker version %d, %d features; this one has %d, %d): train it again",
			NameLearned, m.Version, len(m.Features), RankerVersion, len(LearnedFeatures))
	}
	for _, w := range m.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("%s: the model has a weight that is not a number", NameLearned)
		}
	}
	return nil
}

// TrainOptions configure Train.
type TrainOptions struct {
	BM25 BM25Options
	// Lambda is the pull toward the prior weights; 0 chooses it from Lambdas by
	// cross-validation by API inside the training samples (Folds folds).
	Lambda float64
	Folds  int
	// Source and DocsSource are recorded in the model's TrainInfo.
	Source, DocsSource string
}

// Defaults of training.
const (
	// DefaultTrainFolds is how many folds by API choose the strength.
	DefaultTrainFolds = 5
	// MaxTrainCandidates bounds the documents a training sample is ranked
	// against: a larger corpus gives each sample its best documents by BM25 and
	// its labeled endpoint.
	MaxTrainCandidates = 150
	// priorBM25 is the prior weight of FeatBM25 (every other prior weight is 0): a
	// model pulled all the way to its prior ranks as BM25 does.
	priorBM25    = 4.0
	maxNewtonIts = 100
)

// Lambdas are the strengths Train tries when none is given.
var Lambdas = []float64{0.001, 0.003, 0.01, 0.03, 0.1, 0.3}

// example is one training sample: its candidates' feature rows and which of
// them are the labeled endpoint.
type example struct {
	rows [][]float64
	gold []int // indices into rows
	api  string
}

// labeled is a training query with its labeled endpoint's documents.
type labeled struct {
	q    Query
	gold []int
	api  string
}

// Train fits the learned ranker on queries (samples with their labels) against a
// corpus of documents: the weights that maximize the likelihood of each labeled
// endpoint under a softmax over the documents (a listwise logistic loss), pulled
// toward the prior (BM25 alone) by an L2 penalty. It is deterministic, CPU-only
// and takes about a second for a few hundred samples. Samples whose label names
// no endpoint, or whose endpoint the corpus lacks, are left out and counted
// (TrainInfo.Dropped); none left is an error.
func Train(ctx context.Context, c *Corpus, qs []Query, o TrainOptions) (*RankerModel, error) {
	if o.BM25 == (BM25Options{}) {
		o.BM25 = DefaultBM25
	}
	o.BM25 = o.BM25.withDefaults()
	if o.Folds <= 1 {
		o.Folds = DefaultTrainFolds
	}
	f := newFeaturizer(c, o.BM25)
	info := TrainInfo{Source: o.Source, DocsSource: o.DocsSource, Documents: c.Len(), Dropped: map[string]int{}}
	var ls []labeled
	for _, q := range qs {
		if !q.Truth.HasEndpoint() {
			info.Dropped[DropNoEndpoint]++
			continue
		}
		j := c.Judge(q)
		if len(j.Gold) == 0 {
			info.Dropped[DropNotInCorpus]++
			continue
		}
		ls = append(ls, labeled{q: q, gold: j.Gold, api: q.Truth.Hosts[0]})
	}
	if len(ls) == 0 {
		return nil, fmt.Errorf("%s: no training sample has its labeled endpoint among the %d training documents (%s)",
			NameLearned, c.Len(), droppedText(info.Dropped))
	}
	info.Samples = len(ls)
	for _, l := range ls {
		if !slices.Contains(info.APIHosts, l.api) {
			info.APIHosts = append(info.APIHosts, l.api)
		}
	}
	slices.Sort(info.APIHosts)
	info.APIs = len(info.APIHosts)
	lambda := o.Lambda
	if lambda <= 0 {
		folds := foldsByAPI(ls, o.Folds)
		info.Folds = len(folds)
		sums := make([]float64, len(Lambdas))
		for _, held := range folds {
			var train, test []labeled
			for i, l := range ls {
				if held[i] {
					test = append(test, l)
				} else {
					train = append(train, l)
				}
			}
			tw := termWeightsOf(train)
			trainEx, err := examples(ctx, f, train, tw)
			if err != nil {
				return nil, err
			}
			testEx, err := examples(ctx, f, test, tw)
			if err != nil {
				return nil, err
			}
			// strongest pull first, each fit starting where the last one ended
			var w []float64
			for k := len(Lambdas) - 1; k >= 0; k-- {
				w, _, _ = fit(trainEx, Lambdas[k], w)
				sums[k] += sumRR(w, testEx)
			}
		}
		best := -1.0
		for k, l := range Lambdas {
			mrr := sums[k] / float64(len(ls))
			info.Lambdas = append(info.Lambdas, LambdaScore{Lambda: l, MRR: mrr})
			if mrr > best+1e-9 {
				best, lambda = mrr, l
			}
		}
	}
	tw := termWeightsOf(ls)
	exs, err := examples(ctx, f, ls, tw)
	if err != nil {
		return nil, err
	}
	for _, ex := range exs {
		info.Candidates = max(info.Candidates, len(ex.rows))
	}
	w, loss, its := fit(exs, lambda, nil)
	info.Loss, info.Iterations = loss, its
	info.TrainMRR = sumRR(w, exs) / float64(len(exs))
	if len(info.Dropped) == 0 {
		info.Dropped = nil
	}
	return &RankerModel{Version: RankerVersion, Features: slices.Clone(LearnedFeatures), Weights: w, BM25: o.BM25,
		Lambda: lambda, TermWeights: tw, Training: info}, nil
}

// termWeightsOf are the weights of the query terms the intents of several APIs
// use: with A APIs among the samples and a term in the intents of a of them
// (a ≥ 2), its weight is ln((A+1)/a) / ln(A+1) — near 0 for a term every API's
// intents use, near 1 for one of two APIs'. Terms of one API's intents keep
// weight 1 and are not listed.
func termWeightsOf(ls []labeled) map[string]float64 {
	by := map[string]map[string]bool{}
	apis := map[string]bool{}
	for _, l := range ls {
		apis[l.api] = true
		for _, t := range Tokenize(l.q.Text) {
			if by[t] == nil {
				by[t] = map[string]bool{}
			}
			by[t][l.api] = true
		}
	}
	A := float64(len(apis))
	out := map[string]float64{}
	for t, set := range by {
		if a := float64(len(set)); a >= 2 {
			out[t] = math.Log((A+1)/a) / math.Log(A+1)
		}
	}
	return out
}

func droppedText(d map[string]int) string {
	if len(d) == 0 {
		return "no sample given"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d)) {
		parts = append(parts, fmt.Sprintf("%d: %s", d[k], k))
	}
	return fmt.Sprint(parts)
}

// examples computes the training examples of labeled queries.
func examples(ctx context.Context, f *featurizer, ls []labeled, tw map[string]float64) ([]example, error) {
	var out []example
	wAll := featureIndex(FeatBM25)
	for _, l := range ls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows := f.features(l.q.Text, tw)
		keep := make([]int, len(rows))
		for i := range keep {
			keep[i] = i
		}
		if len(rows) > MaxTrainCandidates {
			slices.SortStableFunc(keep, func(a, b int) int { return cmp.Compare(rows[b][wAll], rows[a][wAll]) })
			keep = keep[:MaxTrainCandidates]
			for _, g := range l.gold {
				if !slices.Contains(keep, g) {
					keep = append(keep, g)
				}
			}
			slices.Sort(keep)
		}
		ex := example{api: l.api}
		for _, i := range keep {
			if slices.Contains(l.gold, i) {
				ex.gold = append(ex.gold, len(ex.rows))
			}
			ex.rows = append(ex.rows, rows[i])
		}
		out = append(out, ex)
	}
	return out, nil
}

// foldsByAPI splits examples into k folds by API, each API in one fold: the
// APIs ordered by a hash of their name and dealt round-robin, so a fold's APIs
// do not depend on the order of the samples. Each fold is a set of example
// indices; fewer APIs than k give fewer folds.
func foldsByAPI(ls []labeled, k int) []map[int]bool {
	var apis []string
	for _, l := range ls {
		if !slices.Contains(apis, l.api) {
			apis = append(apis, l.api)
		}
	}
	return dealByKey(apis, k, func(i int) string { return ls[i].api }, len(ls))
}

// dealByKey deals keys round-robin (ordered by their FNV hash, then name) into
// at most k folds and returns, per fold, the items (0..n) whose key is in it.
func dealByKey(keys []string, k int, keyOf func(int) string, n int) []map[int]bool {
	h := func(s string) uint64 {
		x := fnv.New64a()
		x.Write([]byte(s))
		return x.Sum64()
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(h(a), h(b)), cmp.Compare(a, b)) })
	k = min(k, len(keys))
	fold := map[string]int{}
	for i, key := range keys {
		fold[key] = i % k
	}
	out := make([]map[int]bool, k)
	for i := range out {
		out[i] = map[int]bool{}
	}
	for i := 0; i < n; i++ {
		out[fold[keyOf(i)]][i] = true
	}
	return out
}

// sumRR is the sum of the reciprocal ranks of the first labeled document of each
// example under weights w (ties ranked against it).
func sumRR(w []float64, exs []example) float64 {
	sum := 0.0
	for _, ex := range exs {
		best := math.Inf(-1)
		for _, g := range ex.gold {
			best = math.Max(best, linear(w, ex.rows[g]))
		}
		rank := 1
		for i, row := range ex.rows {
			if !slices.Contains(ex.gold, i) && linear(w, row) >= best {
				rank++
			}
		}
		sum += 1 / float64(rank)
	}
	return sum
}

// priorWeights are the weights training is pulled toward: BM25 alone.
func priorWeights() []float64 {
	w := make([]float64, len(LearnedFeatures))
	w[featureIndex(FeatBM25)] = priorBM25
	return w
}

// objective is the mean listwise loss of exs under w plus (λ/2)·|w − prior|²,
// with its gradient and (when hess is not nil) the Gauss–Newton matrix of the
// loss (the softmax's covariance of the features; positive semi-definite) plus λ.
func objective(w []float64, exs []example, lambda float64, grad []float64, hess [][]float64) float64 {
	F := len(w)
	prior := priorWeights()
	loss := 0.0
	clear(grad)
	for _, row := range hess {
		clear(row)
	}
	mean, meanG := make([]float64, F), make([]float64, F)
	scores := []float64{}
	for _, ex := range exs {
		scores = scores[:0]
		mx := math.Inf(-1)
		for _, row := range ex.rows {
			s := linear(w, row)
			scores = append(scores, s)
			mx = math.Max(mx, s)
		}
		z := 0.0
		for _, s := range scores {
			z += math.Exp(s - mx)
		}
		mxG := math.Inf(-1)
		for _, g := range ex.gold {
			mxG = math.Max(mxG, scores[g])
		}
		zG := 0.0
		for _, g := range ex.gold {
			zG += math.Exp(scores[g] - mxG)
		}
		loss += (mx + math.Log(z)) - (mxG + math.Log(zG))
		clear(mean)
		clear(meanG)
		for i, row := range ex.rows {
			p := math.Exp(scores[i]-mx) / z
			for j, x := range row {
				mean[j] += p * x
			}
			if hess != nil {
				for a, xa := range row {
					if xa == 0 {
						continue
					}
					pa, ha := p*xa, hess[a]
					for b := a; b < len(row); b++ {
						ha[b] += pa * row[b]
					}
				}
			}
		}
		for _, g := range ex.gold {
			p := math.Exp(scores[g]-mxG) / zG
			for j, x := range ex.rows[g] {
				meanG[j] += p * x
			}
		}
		for j := range grad {
			grad[j] += mean[j] - meanG[j]
		}
		if hess != nil {
			for a := range F {
				for b := a; b < F; b++ {
					hess[a][b] -= mean[a] * mean[b]
				}
			}
		}
	}
	for a := range hess { // the lower triangle is the upper's mirror
		for b := range a {
			hess[a][b] = hess[b][a]
		}
	}
	n := float64(len(exs))
	loss /= n
	for j := range grad {
		grad[j] /= n
	}
	for a := range hess {
		for b := range hess[a] {
			hess[a][b] /= n
		}
	}
	for j := range w {
		d := w[j] - prior[j]
		loss += lambda / 2 * d * d
		grad[j] += lambda * d
		if hess != nil {
			hess[j][j] += lambda
		}
	}
	return loss
}

// signFree are the features whose weight may be negative: the cues and priors.
// Every other feature measures how well the query matches, and its weight is
// kept at zero or above, so that more evidence never lowers a document: with
// features that overlap (the whole document and its parts), an unconstrained fit
// trades one against another in ways a corpus with other fields would not honour.
var signFree = map[string]bool{FeatWriteCue: true, FeatGet: true, FeatAPISize: true, FeatPathParams: true, FeatRoot: true}

// fit minimizes the objective by projected Newton steps from the weights from
// (the prior weights when nil),
// the match features' weights held at zero or above (an active set: a weight at
// zero whose gradient pushes it below stays out of the step); it returns the
// weights, the final objective and the steps taken.
func fit(exs []example, lambda float64, from []float64) ([]float64, float64, int) {
	F := len(LearnedFeatures)
	w := slices.Clone(from)
	if w == nil {
		w = priorWeights()
	}
	grad := make([]float64, F)
	hess := make([][]float64, F)
	for i := range hess {
		hess[i] = make([]float64, F)
	}
	next := make([]float64, F)
	scratch := make([]float64, F)
	bounded := make([]bool, F)
	for j, name := range LearnedFeatures {
		bounded[j] = !signFree[name]
	}
	loss := objective(w, exs, lambda, grad, hess)
	its := 0
	for its < maxNewtonIts {
		its++
		var free []int
		for j := range w {
			if !bounded[j] || w[j] > 0 || grad[j] < 0 {
				free = append(free, j)
			}
		}
		sub := make([][]float64, len(free))
		g := make([]float64, len(free))
		for a, ja := range free {
			sub[a] = make([]float64, len(free))
			for b, jb := range free {
				sub[a][b] = hess[ja][jb]
			}
			g[a] = grad[ja]
		}
		dir, err := solve(sub, g)
		if err != nil {
			dir = g // a gradient step when the system is singular
		}
		step := make([]float64, F)
		for a, j := range free {
			step[j] = dir[a]
		}
		before := loss
		for t := 1.0; t > 1e-6; t /= 2 {
			for j := range w {
				next[j] = w[j] - t*step[j]
				if bounded[j] && next[j] < 0 {
					next[j] = 0
				}
			}
			if l := objective(next, exs, lambda, scratch, nil); l < loss {
				copy(w, next)
				loss = objective(w, exs, lambda, grad, hess)
				break
			}
		}
		if before-loss < 1e-10 {
			break
		}
	}
	return w, loss, its
}

// errSingular is solve's error for a matrix with no inverse.
var errSingular = errors.New("singular system")

// solve returns x with A·x = b by Gaussian elimination with partial pivoting;
// A and b are left unchanged.
func solve(A [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	m := make([][]float64, n)
	for i := range m {
		m[i] = append(slices.Clone(A[i]), b[i])
	}
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[p][col]) {
				p = r
			}
		}
		if math.Abs(m[p][col]) < 1e-12 {
			return nil, errSingular
		}
		m[col], m[p] = m[p], m[col]
		for r := col + 1; r < n; r++ {
			f := m[r][col] / m[col][col]
			for c := col; c <= n; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for c := r + 1; c < n; c++ {
			s -= m[r][c] * x[c]
		}
		x[r] = s / m[r][r]
	}
	return x, nil
}

// Fold is one fold of a cross-validation by API: the APIs held out, how many
// samples they have, and the model trained without them.
type Fold struct {
	APIs    []string     `json:"apis"`
	Samples int          `json:"samples"`
	Model   *RankerModel `json:"model"`
}

// CrossValidate measures how the learned ranker does on APIs it was not trained
// on: the queries' APIs (their label's host) are dealt into k folds; for each,
// a model is trained on the other folds' samples and ranks the corpus for the
// fold's. The report pools every held-out sample's ranks (named "learned (cv k
// by API)"); the folds say which APIs each held out and what was trained.
func CrossValidate(ctx context.Context, c *Corpus, qs []Query, k int, o TrainOptions) (*Report, []Fold, error) {
	if k < 2 {
		return nil, nil, fmt.Errorf("cross-validation needs at least 2 folds, not %d", k)
	}
	var apis []string
	apiOf := func(i int) string {
		if len(qs[i].Truth.Hosts) == 0 {
			return ""
		}
		return qs[i].Truth.Hosts[0]
	}
	for i := range qs {
		if a := apiOf(i); !slices.Contains(apis, a) {
			apis = append(apis, a)
		}
	}
	if len(apis) < 2 {
		return nil, nil, fmt.Errorf("cross-validation by API needs samples of at least 2 APIs, not %d", len(apis))
	}
	sets := dealByKey(apis, k, apiOf, len(qs))
	var folds []Fold
	var pooled []SampleResult
	var rep *Report
	for _, held := range sets {
		var train, test []Query
		fold := Fold{}
		for i, q := range qs {
			if held[i] {
				test = append(test, q)
				if a := apiOf(i); !slices.Contains(fold.APIs, a) {
					fold.APIs = append(fold.APIs, a)
				}
			} else {
				train = append(train, q)
			}
		}
		slices.Sort(fold.APIs)
		fold.Samples = len(test)
		m, err := Train(ctx, c, train, o)
		if err != nil {
			return nil, nil, fmt.Errorf("fold holding out %v: %w", fold.APIs, err)
		}
		fold.Model = m
		l, err := NewLearned(c, m)
		if err != nil {
			return nil, nil, err
		}
		r, err := Evaluate(ctx, Config{Corpus: c, Retriever: l, Name: NameLearned, Queries: test, Workers: 1})
		if err != nil {
			return nil, nil, err
		}
		pooled = append(pooled, r.Samples...)
		rep = r
		folds = append(folds, fold)
	}
	slices.SortStableFunc(pooled, func(a, b SampleResult) int { return cmp.Compare(a.SampleID, b.SampleID) })
	out := &Report{Retriever: fmt.Sprintf("%s (cv %d by API)", NameLearned, len(folds)), Corpus: rep.Corpus, Depth: rep.Depth,
		Queries: len(pooled), QuerySources: map[string]int{}, Overall: Aggregate(pooled), ByDocMatchType: ByDocMatchType(pooled),
		Samples: pooled}
	for _, r := range pooled {
		out.QuerySources[r.QuerySource]++
	}
	return out, folds, nil
}
