package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// NameLearned is the learned retriever: a linear ranker over the features below,
// trained on a benchmark's samples (Train) and kept in the store.
const NameLearned = "learned"

// The features of the learned ranker, in the order of a model's weights. Every
// lexical one is a score of the query against one part of an endpoint document,
// divided by its largest value over the corpus for that query (so each lies in
// 0–1 whatever the corpus's size and a query's length); the cues and priors lie in
// 0–1 by construction. None names an API or an endpoint: a model trained on some
// APIs ranks the endpoints of others.
const (
	// FeatBM25 is Okapi BM25 over the whole document (the bm25 retriever's score).
	FeatBM25 = "bm25"
	// FeatEndpoint is BM25 over what documents the endpoint itself: its name,
	// description, route and parameters (not its API's title or description).
	FeatEndpoint = "bm25_endpoint"
	// FeatAPI is BM25 over the API's title and host.
	FeatAPI = "bm25_api"
	// FeatAPIInfo is BM25 over the API's description and category.
	FeatAPIInfo = "bm25_api_info"
	// FeatName is BM25 over the endpoint's name.
	FeatName = "bm25_name"
	// FeatDesc is BM25 over the endpoint's description.
	FeatDesc = "bm25_description"
	// FeatRoute is BM25 over the route's segments and holes.
	FeatRoute = "bm25_route"
	// FeatParams is BM25 over the parameter names.
	FeatParams = "bm25_params"
	// FeatParamDesc is BM25 over the parameter descriptions.
	FeatParamDesc = "bm25_param_descriptions"
	// FeatAPIDoc is BM25 over the whole API: its title, host, description and
	// category and every endpoint's name, route, description and parameters, one
	// document per host; every endpoint of the API gets its API's score.
	FeatAPIDoc = "bm25_api_doc"
	// FeatStem and FeatAPIDocStem are FeatBM25 and FeatAPIDoc over terms cut to
	// their first five letters (trending and trends, geocoding and geocode meet).
	FeatStem       = "bm25_stem"
	FeatAPIDocStem = "bm25_api_doc_stem"
	// FeatWeighted and FeatAPIDocWeighted are FeatBM25 and FeatAPIDoc with each
	// query term counted by how specific it is: a term the training intents of
	// many APIs use (fetch, response, data, api) counts for less
	// (RankerModel.TermWeights).
	FeatWeighted       = "bm25_weighted"
	FeatAPIDocWeighted = "bm25_api_doc_weighted"
	// FeatBestLine is FeatWeighted of the query's best line for the document: an
	// intent of several comments may have one that says what the code does among
	// others that say how.
	FeatBestLine = "bm25_best_line"
	// FeatBestInAPI is the best FeatBM25 of any endpoint of the same API.
	FeatBestInAPI = "bm25_best_in_api"
	// FeatEndpointInAPI is FeatEndpoint divided by its best value among the
	// endpoints of the same API (instead of the corpus): how the endpoint
	// compares with its siblings.
	FeatEndpointInAPI = "bm25_endpoint_in_api"
	// FeatCover is the share of the query's terms (weighted by idf) the document
	// holds; FeatAPICover the same over the whole API.
	FeatCover    = "cover"
	FeatAPICover = "api_cover"
	// FeatNameInQuery is the share of the endpoint name's terms the query holds;
	// FeatRouteInQuery the same for the route's literal segments.
	FeatNameInQuery  = "name_in_query"
	FeatRouteInQuery = "route_in_query"
	// FeatAPIInQuery is the share of the API's title and host terms (weighted by
	// their idf over the APIs) the query holds: the intent names the service.
	FeatAPIInQuery = "api_in_query"
	// FeatWriteCue is 1 when the query asks to change something (create, send,
	// upload, delete, …) and the endpoint's method is not GET.
	FeatWriteCue = "write_cue"
	// FeatGet is 1 for a GET endpoint.
	FeatGet = "method_get"
	// FeatAPISize is 1/n for an API of n endpoints: were each API as likely as
	// another, an endpoint of a small API would be likelier than one of a large
	// one (training says how much that holds).
	FeatAPISize = "api_size_prior"
	// FeatPathParams is the number of path parameters, up to 3, over 3.
	FeatPathParams = "path_params"
	// FeatRoot is 1 for the route "/".
	FeatRoot = "root_route"
)

// LearnedFeatures are the features of this version of the learned ranker, in the
// order of a model's weights.
var LearnedFeatures = []string{
	FeatBM25, FeatEndpoint, FeatAPI, FeatAPIInfo, FeatName, FeatDesc, FeatRoute, FeatParams, FeatParamDesc, FeatAPIDoc,
	FeatStem, FeatAPIDocStem, FeatWeighted, FeatAPIDocWeighted, FeatBestLine, FeatBestInAPI, FeatEndpointInAPI,
	FeatCover, FeatAPICover, FeatNameInQuery, FeatRouteInQuery, FeatAPIInQuery,
	FeatWriteCue, FeatGet, FeatAPISize, FeatPathParams, FeatRoot,
}

// lexicalFeatures are the features divided by their largest value per query.
var lexicalFeatures = []string{FeatBM25, FeatEndpoint, FeatAPI, FeatAPIInfo, FeatName, FeatDesc, FeatRoute, FeatParams, FeatParamDesc,
	FeatAPIDoc, FeatStem, FeatAPIDocStem, FeatWeighted, FeatAPIDocWeighted}

// featureIndex is a feature's position in LearnedFeatures.
func featureIndex(name string) int { return slices.Index(LearnedFeatures, name) }

// writeVerbs are the words of a query that asks to change something rather than
// read it.
var writeVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`create creat add post send submit upload updat update delete remov remove register
		save put patch insert publish subscribe book order pay cancel set modify edit generate`) {
		m[w] = true
	}
	return m
}()

// stem cuts a term to its first five letters.
func stem(t string) string {
	if utf8.RuneCountInString(t) <= 5 {
		return t
	}
	return string([]rune(t)[:5])
}

func stems(toks []string) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = stem(t)
	}
	return out
}

// featurizer computes the learned ranker's features of a query against every
// document of a corpus. It is read-only after newFeaturizer, so safe for
// concurrent use.
type featurizer struct {
	n      int
	fields map[string]*BM25 // by feature name: the per-document indices
	api    *BM25            // one document per API (host)
	apiSt  *BM25            // the same, stemmed
	all    *BM25            // FeatBM25's index (also in fields)
	apiOf  []int            // document → its API
	apis   [][]int          // API → its documents
	name   [][]string       // distinct terms of each document's name
	route  [][]string       // distinct terms of each document's literal route segments
	apiID  [][]string       // distinct terms of each API's title and host
	priors [][]float64      // per document: FeatGet, FeatAPISize, FeatPathParams, FeatRoot
	method []string
	bm25   BM25Options
}

func distinct(toks []string) []string {
	out := slices.Clone(toks)
	slices.Sort(out)
	return slices.Compact(out)
}

func newFeaturizer(c *Corpus, o BM25Options) *featurizer {
	f := &featurizer{n: len(c.Docs), fields: map[string]*BM25{}, apiOf: make([]int, len(c.Docs)), bm25: o}
	per := map[string][][]string{}
	add := func(feat string, toks []string) { per[feat] = append(per[feat], toks) }
	hostIdx := map[string]int{}
	var apiToks [][]string
	for i := range c.Docs {
		d := &c.Docs[i]
		all := Tokenize(d.Text())
		add(FeatBM25, all)
		add(FeatStem, stems(all))
		add(FeatAPI, Tokenize(d.API+"\n"+d.Host))
		add(FeatAPIInfo, Tokenize(d.APIDescription+"\n"+d.Category))
		add(FeatName, Tokenize(d.Name))
		add(FeatDesc, Tokenize(d.Description))
		add(FeatRoute, Tokenize(d.Route))
		var pn, pd []string
		for _, p := range d.Params {
			pn = append(pn, Tokenize(p.Name)...)
			pd = append(pd, Tokenize(p.Description)...)
		}
		add(FeatParams, pn)
		add(FeatParamDesc, pd)
		add(FeatEndpoint, Tokenize(strings.Join(append([]string{d.Name, d.Description, d.Route}, append(pn, pd...)...), "\n")))
		f.name = append(f.name, distinct(Tokenize(d.Name)))
		f.route = append(f.route, distinct(Tokenize(literalSegments(d.Route))))
		f.method = append(f.method, d.Method)
		a, ok := hostIdx[d.Host]
		if !ok {
			a = len(f.apis)
			hostIdx[d.Host] = a
			f.apis = append(f.apis, nil)
			apiToks = append(apiToks, Tokenize(d.API+"\n"+d.Host+"\n"+d.APIDescription+"\n"+d.Category))
			f.apiID = append(f.apiID, distinct(Tokenize(d.API+"\n"+d.Host)))
		}
		f.apiOf[i] = a
		f.apis[a] = append(f.apis[a], i)
		apiToks[a] = append(apiToks[a], Tokenize(strings.Join([]string{d.Name, d.Route, d.Description}, "\n"))...)
		apiToks[a] = append(apiToks[a], pn...)
	}
	for _, feat := range lexicalFeatures {
		if feat == FeatAPIDoc || feat == FeatAPIDocStem || feat == FeatWeighted || feat == FeatAPIDocWeighted {
			continue
		}
		f.fields[feat] = newBM25(per[feat], o)
	}
	f.all = f.fields[FeatBM25]
	f.api = newBM25(apiToks, o)
	stemmed := make([][]string, len(apiToks))
	for i, t := range apiToks {
		stemmed[i] = stems(t)
	}
	f.apiSt = newBM25(stemmed, o)
	f.priors = make([][]float64, len(c.Docs))
	for i := range c.Docs {
		d := &c.Docs[i]
		holes := min(strings.Count(d.Route, "{"), 3)
		f.priors[i] = []float64{b2f(d.Method == "GET"), 1 / float64(len(f.apis[f.apiOf[i]])), float64(holes) / 3, b2f(d.Route == "/")}
	}
	return f
}

// literalSegments is a route without its {holes}.
func literalSegments(route string) string {
	var b strings.Builder
	depth := 0
	for _, r := range route {
		switch {
		case r == '{':
			depth++
			b.WriteByte(' ')
		case r == '}':
			if depth > 0 {
				depth--
			}
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// features returns the feature vectors of every document for a query: one row
// per document, in LearnedFeatures order; weights are the query terms' weights
// of the weighted features.
func (f *featurizer) features(query string, weights map[string]float64) [][]float64 {
	toks := Tokenize(query)
	F := len(LearnedFeatures)
	flat := make([]float64, f.n*F)
	rows := make([][]float64, f.n)
	for i := range rows {
		rows[i] = flat[i*F : (i+1)*F]
	}
	col := make([]float64, f.n)
	set := func(feat string, vals []float64) {
		j := featureIndex(feat)
		mx := 0.0
		for _, v := range vals {
			mx = math.Max(mx, v)
		}
		if mx <= 0 {
			return
		}
		for i, v := range vals {
			rows[i][j] = v / mx
		}
	}
	stemmed := stems(toks)
	for _, feat := range lexicalFeatures {
		switch feat {
		case FeatAPIDoc, FeatAPIDocStem, FeatAPIDocWeighted:
			ix, q, w := f.api, toks, map[string]float64(nil)
			switch feat {
			case FeatAPIDocStem:
				ix, q = f.apiSt, stemmed
			case FeatAPIDocWeighted:
				w = weights
			}
			per := make([]float64, len(f.apis))
			ix.scoreWeighted(q, w, per)
			for i := range col {
				col[i] = per[f.apiOf[i]]
			}
		case FeatStem:
			f.fields[feat].scoreAll(stemmed, col)
		case FeatWeighted:
			f.all.scoreWeighted(toks, weights, col)
		default:
			f.fields[feat].scoreAll(toks, col)
		}
		set(feat, col)
	}
	// the best line
	if lines := strings.Split(query, "\n"); len(lines) > 1 {
		best := make([]float64, f.n)
		for _, line := range lines {
			f.all.scoreWeighted(Tokenize(line), weights, col)
			for i, v := range col {
				best[i] = math.Max(best[i], v)
			}
		}
		set(FeatBestLine, best)
	} else {
		jW, jL := featureIndex(FeatWeighted), featureIndex(FeatBestLine)
		for i := range rows {
			rows[i][jL] = rows[i][jW]
		}
	}
	// the best whole-document score within each API
	jAll, jBest := featureIndex(FeatBM25), featureIndex(FeatBestInAPI)
	for _, docs := range f.apis {
		best := 0.0
		for _, i := range docs {
			best = math.Max(best, rows[i][jAll])
		}
		for _, i := range docs {
			rows[i][jBest] = best
		}
	}
	// the endpoint's own text against its siblings'
	jEP, jEPIn := featureIndex(FeatEndpoint), featureIndex(FeatEndpointInAPI)
	for _, docs := range f.apis {
		best := 0.0
		for _, i := range docs {
			best = math.Max(best, rows[i][jEP])
		}
		if best > 0 {
			for _, i := range docs {
				rows[i][jEPIn] = rows[i][jEP] / best
			}
		}
	}
	// coverage of the query's distinct terms, weighted by idf, by the document and
	// by its API
	q := distinct(toks)
	var total, totalAPI float64
	jCover, jAPICover := featureIndex(FeatCover), featureIndex(FeatAPICover)
	apiCover := make([]float64, len(f.apis))
	for _, t := range q {
		if id, ok := f.all.terms[t]; ok {
			w := f.all.idf[id]
			total += w
			for _, p := range f.all.postings[id] {
				rows[p.doc][jCover] += w
			}
		}
		if id, ok := f.api.terms[t]; ok {
			w := f.api.idf[id]
			totalAPI += w
			for _, p := range f.api.postings[id] {
				apiCover[p.doc] += w
			}
		}
	}
	for i := range rows {
		if total > 0 {
			rows[i][jCover] /= total
		}
		if totalAPI > 0 {
			rows[i][jAPICover] = apiCover[f.apiOf[i]] / totalAPI
		}
	}
	// how much of the endpoint's own name and route the query holds
	jName, jRoute := featureIndex(FeatNameInQuery), featureIndex(FeatRouteInQuery)
	write := false
	for _, t := range toks {
		if writeVerbs[t] || writeVerbs[stem(t)] {
			write = true
			break
		}
	}
	jWrite, jGet := featureIndex(FeatWriteCue), featureIndex(FeatGet)
	jAPIIn := featureIndex(FeatAPIInQuery)
	apiIn := make([]float64, len(f.apis))
	for a, terms := range f.apiID {
		var have, all float64
		for _, t := range terms {
			w := f.api.idfOf(t)
			all += w
			if _, ok := slices.BinarySearch(q, t); ok {
				have += w
			}
		}
		if all > 0 {
			apiIn[a] = have / all
		}
	}
	for i := range rows {
		rows[i][jName] = shareIn(f.name[i], q)
		rows[i][jRoute] = shareIn(f.route[i], q)
		rows[i][jWrite] = b2f(write && f.method[i] != "GET")
		rows[i][jAPIIn] = apiIn[f.apiOf[i]]
		copy(rows[i][jGet:], f.priors[i])
	}
	return rows
}

// shareIn is the share of terms (distinct) found in sorted; 0 for no terms.
func shareIn(terms, sorted []string) float64 {
	if len(terms) == 0 {
		return 0
	}
	n := 0
	for _, t := range terms {
		if _, ok := slices.BinarySearch(sorted, t); ok {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

// linear is a row's score under weights w.
func linear(w, row []float64) float64 {
	s := 0.0
	for j, x := range row {
		s += w[j] * x
	}
	return s
}

// Learned is the learned retriever over a corpus: it scores every document with
// a trained model's weights and returns the best. It is safe for concurrent use.
type Learned struct {
	model *RankerModel
	feat  *featurizer
}

// NewLearned builds the learned retriever of a trained model over a corpus. A
// model of other features (an older sccg's) is an error: train it again.
func NewLearned(c *Corpus, m *RankerModel) (*Learned, error) {
	if m == nil {
		return nil, fmt.Errorf("%s: no trained model", NameLearned)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return &Learned{model: m, feat: newFeaturizer(c, m.BM25)}, nil
}

// Model is the trained model the retriever ranks with.
func (l *Learned) Model() *RankerModel { return l.model }

// Retrieve returns the k best documents for the query. Every document has a
// score, so a query sharing no term with the corpus still gets the documents its
// priors favour.
func (l *Learned) Retrieve(ctx context.Context, query string, k int) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	top := newTopK(k)
	for i, row := range l.feat.features(query, l.model.TermWeights) {
		top.push(Hit{Doc: i, Score: linear(l.model.Weights, row)})
	}
	return top.sorted(), nil
}
