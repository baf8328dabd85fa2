package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"time"

	"sccg/evaluate/retrieve"
	"sccg/release"
	"sccg/store"
)

// trainFlags name the learned retriever's ranker: trained on a benchmark's
// samples (--train, with documents from --train-docs or the samples' own
// api_metadata), or one the store holds (--ranker, else the one trained last).
type trainFlags struct {
	file   string
	docs   multiFlag
	ranker int64
}

func (t *trainFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&t.file, "train", "", "train the learned retriever on the samples of this benchmark `file` (their intents and labeled endpoints),\n"+
		"or find the ranker the store (--db) keeps for the same training; its APIs should not be the ones scored (splits are by API)")
	fs.Var(&t.docs, "train-docs", "the documents the learned retriever trains against (OpenAPI / ToolBench files or folders; repeatable);\n"+
		"default: the --train samples' own api_metadata")
	fs.Int64Var(&t.ranker, "ranker", 0, "the stored ranker `id` the learned retriever ranks with, without --train (default: the one trained last)")
}

// check refuses flags that contradict each other.
func (t *trainFlags) check() error {
	if len(t.docs) > 0 && t.file == "" {
		return usagef("--train-docs needs --train FILE")
	}
	if t.ranker != 0 && t.file != "" {
		return usagef("--ranker and --train contradict each other: --ranker names a stored ranker, --train trains one")
	}
	return nil
}

// given reports whether any training flag was given.
func (t *trainFlags) given() bool { return t.file != "" || len(t.docs) > 0 || t.ranker != 0 }

// trainSet reads the training samples and their documents.
func (t *trainFlags) trainSet(ctx context.Context, withName bool) (*retrieve.Corpus, []retrieve.Query, error) {
	recs, err := release.ReadFile(t.file)
	if err != nil {
		return nil, nil, fmt.Errorf("--train: %w", err)
	}
	if len(recs) == 0 {
		return nil, nil, usagef("--train %s holds no records", t.file)
	}
	var c *retrieve.Corpus
	if len(t.docs) > 0 {
		c, err = docsCorpus(ctx, t.docs)
	} else {
		c, err = retrieve.FromRecords(recs)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--train %s: %w", t.file, err)
	}
	return c, retrieve.Queries(recs, retrieve.QueryOptions{WithName: withName}), nil
}

// model trains the ranker of --train into st (or finds it there), or reads the
// stored one; it says on stderr which it is and what was left out of training.
func (t *trainFlags) model(ctx context.Context, e *env, st *store.Store, cmd string, withName bool) (*retrieve.Trained, error) {
	if t.file == "" {
		tr, err := retrieve.StoredRanker(ctx, st, t.ranker)
		if errors.Is(err, store.ErrNotFound) {
			if t.ranker != 0 {
				return nil, usagef("--ranker %d: the store %s holds no such ranker", t.ranker, e.db)
			}
			return nil, usagef("the learned retriever %v: the store %s holds none", retrieve.ErrNeedsRanker, e.db)
		}
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "sccg %s: learned: ranker %d from the store, %s\n", cmd, tr.ID, tr.Model.Describe())
		return tr, nil
	}
	c, qs, err := t.trainSet(ctx, withName)
	if err != nil {
		return nil, err
	}
	for _, p := range c.Problems {
		fmt.Fprintf(e.stderr, "sccg %s: train documents: %s\n", cmd, p)
	}
	start := time.Now()
	tr, err := retrieve.TrainStored(ctx, st, c, qs, retrieve.TrainOptions{Source: t.file, DocsSource: c.Source})
	if err != nil {
		return nil, fmt.Errorf("train the learned retriever on %s: %w", t.file, err)
	}
	how := fmt.Sprintf("trained in %s", time.Since(start).Round(10*time.Millisecond))
	if tr.Reused {
		how = "the store's, trained before on the same inputs"
	}
	fmt.Fprintf(e.stderr, "sccg %s: learned: ranker %d (%s), %s\n", cmd, tr.ID, how, tr.Model.Describe())
	return tr, nil
}

// trainOverlap counts the samples of recs whose API (host) the ranker was
// trained on: their scores are not of held-out APIs.
func trainOverlap(m *retrieve.RankerModel, qs []retrieve.Query) int {
	n := 0
	for _, q := range qs {
		if slices.ContainsFunc(q.Truth.Hosts, func(h string) bool { _, ok := slices.BinarySearch(m.Training.APIHosts, h); return ok }) {
			n++
		}
	}
	return n
}
