package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/baseline"
	"sccg/evaluate/prompts"
)

func runBaseline(ctx context.Context, e *env, args []string) error {
	fs := e.flags("baseline", "NAME --bench FILE|DIR [--split test] (--setting S | --prompts FILE) --out FILE\n\n"+
		"NAME is one of "+strings.Join(baseline.Names, ", ")+". The baseline answers the prompts of one setting\n"+
		"(built here from --setting, or read from --prompts); gold and null with neither answer every sample")
	var bf benchFlags
	bf.bind(fs)
	setting := fs.String("setting", "", "build the prompts of this setting (see 'sccg prompts')")
	task := fs.String("task", prompts.TaskGenerate, "generate or select-endpoint (with --setting)")
	promptsFile := fs.String("prompts", "", "answer the prompts of this `file` (from 'sccg prompts')")
	out := fs.String("out", "", "generations JSONL `file` to write")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("want one baseline name (%s), got %d arguments", strings.Join(baseline.Names, ", "), len(rest))
	}
	name := rest[0]
	if !slices.Contains(baseline.Names, name) {
		return usagef("unknown baseline %q (want one of %s)", name, strings.Join(baseline.Names, ", "))
	}
	if *out == "" {
		return usagef("--out is required")
	}
	if *setting != "" && *promptsFile != "" {
		return usagef("give --setting or --prompts, not both")
	}
	if *setting == "" && *promptsFile == "" && name != baseline.Gold && name != baseline.Null {
		return usagef("baseline %s answers prompts: give --setting S or --prompts FILE", name)
	}
	learned := settingOf(*setting) == prompts.RAGLearned
	if (len(bf.train.docs) > 0 || bf.train.ranker != 0) && !learned {
		return usagef("--train-docs and --ranker are for --setting %s", prompts.RAGLearned)
	}
	if bf.train.file != "" && name != baseline.BM25NearestTrain && !learned {
		return usagef("--train is the train source of bm25-nearest-train and of --setting %s", prompts.RAGLearned)
	}
	src, err := bf.load(ctx, e)
	if err != nil {
		return err
	}
	defer src.close()
	bench := src.bench
	var ps []prompts.Prompt
	switch {
	case *promptsFile != "":
		if ps, err = prompts.ReadFile(*promptsFile); err != nil {
			return err
		}
	case *setting != "":
		o, err := bf.options(ctx, e, src, *setting, *task)
		if err != nil {
			return err
		}
		res, err := buildPrompts(ctx, e, bench, o)
		if err != nil {
			return err
		}
		ps = res.Prompts
	default:
		for _, r := range bench.Samples {
			ps = append(ps, prompts.Prompt{SampleID: r.SampleID, Setting: name, Task: prompts.TaskGenerate, FunctionName: r.FunctionName})
		}
	}
	var bo baseline.Options
	if name == baseline.BM25NearestTrain {
		train := bench.All
		if bf.train.file != "" {
			if train, err = readTrainFile(bf.train.file); err != nil {
				return err
			}
		} else if train, err = bench.TrainSplit(); err != nil {
			return err
		}
		nt, err := baseline.NewNearestTrain(train)
		if err != nil {
			return err
		}
		bo.Nearest = nt
		e.logf("bm25-nearest-train: %d train intents", nt.Len())
	}
	gens, err := baseline.Generate(ctx, name, bench.All, ps, bo)
	if err != nil {
		return err
	}
	if err := evaluate.WriteGenerations(*out, gens); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"baseline": name, "out": *out, "generations": len(gens)})
	}
	fmt.Fprintf(e.stdout, "wrote %d %s generations to %s\n", len(gens), name, *out)
	return nil
}
