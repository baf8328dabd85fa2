package main

import (
	"context"

	"sccg/evaluate"
	"sccg/store"
)

// storedSplits is the split the store assigned to each sample it holds (an
// imported benchmark's `import --split`, or `sccg split`); nil without a store.
func storedSplits(ctx context.Context, st *store.Store) (map[string]string, error) {
	if st == nil {
		return nil, nil
	}
	smps, err := st.Samples(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range smps {
		if s.Split != "" {
			out[s.SampleID] = s.Split
		}
	}
	return out, nil
}

// loadBench reads --bench with one notion of split for every command: a record's
// split field, its file's name, else the split the store (when there is one)
// assigned to its sample.
func loadBench(ctx context.Context, st *store.Store, path, split string) (*evaluate.Bench, error) {
	stored, err := storedSplits(ctx, st)
	if err != nil {
		return nil, err
	}
	return evaluate.LoadBenchStored(path, split, stored)
}
