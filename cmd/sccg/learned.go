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

// bind adds the flags; use says what --train's samples are for.
func (t *trainFlags) bind(fs *flag.FlagSet, use string) {
	fs.StringVar(&t.file, "train", "", "the train samples: a benchmark `file`; "+use+".\n"+
		"A ranker trained on the same inputs before is found in the store (--db). Its APIs should not be the ones scored (splits are by API)")
	fs.Var(&t.docs, "train-docs", "the documents the learned retriever trains against: OpenAPI / ToolBench files or folders (`path`; repeatable);\n"+
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

// noRanker is the usage error of the learned retriever with no --train and no
// store to read a ranker from (the store is not created for nothing); nil
// otherwise.
func (t *trainFlags) noRanker(e *env) error {
	if t.file == "" && !fileExists(e.db) {
		return usagef("the learned retriever %v: the store %s does not exist", retrieve.ErrNeedsRanker, e.db)
	}
	return nil
}

// given reports whether any training flag was given.
func (t *trainFlags) given() bool { return t.file != "" || len(t.docs) > 0 || t.ranker != 0 }

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
	recs, err := readTrainFile(t.file)
	if err != nil {
		return nil, err
	}
	return trainRanker(ctx, e, st, cmd, recs, t.file, t.docs, withName)
}

// readTrainFile reads the samples of a --train file.
func readTrainFile(path string) ([]release.Record, error) {
	recs, err := release.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--train: %w", err)
	}
	if len(recs) == 0 {
		return nil, usagef("--train %s holds no records", path)
	}
	return recs, nil
}

// trainSet is the training samples' queries and the documents they train
// against: those of docs (OpenAPI / ToolBench files), else the samples' own
// api_metadata.
func trainSet(ctx context.Context, recs []release.Record, source string, docs []string, withName bool) (*retrieve.Corpus, []retrieve.Query, error) {
	var c *retrieve.Corpus
	var err error
	if len(docs) > 0 {
		c, err = docsCorpus(ctx, docs)
	} else {
		c, err = retrieve.FromRecords(recs)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("training documents of %s: %w", source, err)
	}
	return c, retrieve.Queries(recs, retrieve.QueryOptions{WithName: withName}), nil
}

// trainRanker trains the learned ranker on recs (named source) into st, or
// finds the model the store holds for the same training; it says on stderr
// which it is, and what was left out of training.
func trainRanker(ctx context.Context, e *env, st *store.Store, cmd string, recs []release.Record, source string, docs []string, withName bool) (*retrieve.Trained, error) {
	c, qs, err := trainSet(ctx, recs, source, docs, withName)
	if err != nil {
		return nil, err
	}
	for _, p := range c.Problems {
		fmt.Fprintf(e.stderr, "sccg %s: training documents: %s\n", cmd, p)
	}
	start := time.Now()
	tr, err := retrieve.TrainStored(ctx, st, c, qs, retrieve.TrainOptions{Source: source, DocsSource: c.Source})
	if err != nil {
		return nil, fmt.Errorf("train the learned retriever on %s: %w", source, err)
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
