package retrieve

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"sccg/internal/progress"
	"sccg/internal/workpool"
)

// Config is one retrieval evaluation.
type Config struct {
	Corpus    *Corpus
	Retriever Retriever
	Name      string // the retriever's name, reported
	Queries   []Query
	Depth     int // documents retrieved per query; default DefaultDepth
	KeepHits  int // hits kept per sample in the report; default 10, negative for none
	Workers   int // queries in flight; default GOMAXPROCS
	Progress  progress.Counter
}

// CorpusInfo describes the corpus of a report.
type CorpusInfo struct {
	Source    string   `json:"source"`
	Documents int      `json:"documents"`
	Hosts     int      `json:"hosts"`
	Problems  []string `json:"problems,omitempty"`
}

// Report is the outcome of a retrieval evaluation: the metrics overall and by
// doc_match_type, and every sample's ranks.
type Report struct {
	Retriever      string         `json:"retriever"`
	Corpus         CorpusInfo     `json:"corpus"`
	Depth          int            `json:"depth"`
	Queries        int            `json:"queries"`
	QuerySources   map[string]int `json:"query_sources"`
	Seconds        float64        `json:"seconds"`
	QueriesPerSec  float64        `json:"queries_per_second"`
	Overall        Agg            `json:"overall"`
	ByDocMatchType map[string]Agg `json:"by_doc_match_type"`
	Samples        []SampleResult `json:"samples"`
	// Settings are the options the run was made with (split, parameters, …), as
	// the caller states them.
	Settings map[string]any `json:"settings,omitempty"`
}

// Evaluate retrieves for every query and scores the rankings.
func Evaluate(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Corpus == nil || cfg.Retriever == nil {
		return nil, errors.New("retrieve: no corpus or retriever")
	}
	if len(cfg.Queries) == 0 {
		return nil, errors.New("retrieve: no queries")
	}
	depth := cfg.Depth
	if depth <= 0 {
		depth = DefaultDepth
	}
	keep := cfg.KeepHits
	if keep == 0 {
		keep = 10
	}
	ctr := cfg.Progress
	if ctr == nil {
		ctr = progress.Nop
	}
	ctr.SetTotal(int64(len(cfg.Queries)))
	results := make([]SampleResult, len(cfg.Queries))
	start := time.Now()
	if p, ok := cfg.Retriever.(Preparer); ok {
		texts := make([]string, len(cfg.Queries))
		for i, q := range cfg.Queries {
			texts[i] = q.Text
		}
		if err := p.Prepare(ctx, texts); err != nil {
			return nil, err
		}
	}
	err := workpool.ForEach(ctx, cfg.Workers, len(cfg.Queries), func(i int) error {
		q := cfg.Queries[i]
		hits, err := cfg.Retriever.Retrieve(ctx, q.Text, depth)
		if err != nil {
			return err
		}
		results[i] = judge(cfg.Corpus, q, hits, keep)
		ctr.Add(1)
		return nil
	})
	ctr.Done()
	if err != nil {
		return nil, err
	}
	secs := time.Since(start).Seconds()
	slices.SortStableFunc(results, func(a, b SampleResult) int { return cmp.Compare(a.SampleID, b.SampleID) })
	rep := &Report{Retriever: cfg.Name, Depth: depth, Queries: len(results), QuerySources: map[string]int{},
		Corpus:  CorpusInfo{Source: cfg.Corpus.Source, Documents: cfg.Corpus.Len(), Hosts: cfg.Corpus.Hosts(), Problems: cfg.Corpus.Problems},
		Seconds: secs, Overall: Aggregate(results), ByDocMatchType: ByDocMatchType(results), Samples: results}
	if secs > 0 {
		rep.QueriesPerSec = float64(len(results)) / secs
	}
	for _, r := range results {
		rep.QuerySources[r.QuerySource]++
	}
	return rep, nil
}
