package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"sccg/redact"
	"sccg/store"
)

// redactFlags are the flags of the redact stage, shared by `sccg redact` and
// `sccg build`.
type redactFlags struct {
	onLeak       *string
	alsoOriginal *bool
}

func bindRedactFlags(fs *flag.FlagSet, prefix string) *redactFlags {
	return &redactFlags{
		onLeak: fs.String("on-leak", redact.DefaultOnLeak, prefix+"when the stricter retry still leaks: strict (the offline generator writes the intent) or drop (the sample is left out)"),
		alsoOriginal: fs.Bool("also-original", false, prefix+"also write a redacted intent for samples that keep their human comment, "+
			"exported beside it as redacted_intent (the paired contamination experiment)"),
	}
}

// options checks the flags and turns them into the stage's options.
func (f *redactFlags) options() (redact.Options, error) {
	if *f.onLeak != redact.OnLeakStrict && *f.onLeak != redact.OnLeakDrop {
		return redact.Options{}, usagef("--on-leak must be %s or %s, not %q", redact.OnLeakStrict, redact.OnLeakDrop, *f.onLeak)
	}
	return redact.Options{OnLeak: *f.onLeak, AlsoOriginal: *f.alsoOriginal}, nil
}

func runRedact(ctx context.Context, e *env, args []string) error {
	fs := e.flags("redact", "[--on-leak strict|drop] [--also-original]\n\n"+
		"Writes the intent of every function decontam kept: its human comment when that\n"+
		"states the function's goal (LeakChecked, the report recorded), else an intent that\n"+
		"passes LeakCheck, written from the code with its ground truth masked. Samples\n"+
		"already built are rebuilt with the new intents.")
	rf := bindRedactFlags(fs, "")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("redact takes no arguments, got %q", pos)
	}
	opt, err := rf.options()
	if err != nil {
		return err
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	opt.Progress = e.progress().Start("redact", 0)
	res, err := redact.Run(ctx, s, opt)
	if err != nil {
		return err
	}
	if res.Functions == 0 {
		return fmt.Errorf("redact: the store has no kept functions (run sccg decontam first)")
	}
	if err := rebuildSamples(ctx, e, s); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(res)
	}
	fmt.Fprintf(e.stdout, "intents of %d kept functions (%d already current, %d attempts made)\n", res.Functions, res.Reused, res.Attempts)
	fmt.Fprintf(e.stdout, "  by path: %s\n", formatPaths(res.Paths))
	if res.OriginalLeaked > 0 {
		fmt.Fprintf(e.stdout, "  %d kept human comments name part of their ground truth (recorded, kept)\n", res.OriginalLeaked)
	}
	if res.Paired > 0 {
		fmt.Fprintf(e.stdout, "  %d redacted intents beside a human comment (--also-original)\n", res.Paired)
	}
	if res.MaskFailed > 0 {
		fmt.Fprintf(e.stdout, "  %d functions could not be masked (recorded; their intents come from the facts)\n", res.MaskFailed)
	}
	return nil
}

// rebuildSamples rebuilds the store's built samples, when it has any, so their
// records carry the intents just written.
func rebuildSamples(ctx context.Context, e *env, s *store.Store) error {
	smps, err := s.Samples(ctx)
	if err != nil {
		return err
	}
	for _, smp := range smps {
		if smp.Origin == store.OriginBuilt {
			_, err := buildSamplesIfAny(ctx, e, s)
			return err
		}
	}
	return nil
}

// formatPaths renders intent counts by path in a fixed order: "original 43, offline 81".
func formatPaths(m map[string]int) string {
	order := []string{redact.PathOriginal, redact.PathLLM, redact.PathLLMRetry, redact.PathOffline, redact.PathFallback, redact.PathDropped}
	var parts []string
	for _, p := range order {
		if n := m[p]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p, n))
		}
	}
	for _, p := range sortedKeys(m) {
		if !strings.Contains(strings.Join(order, " "), p) && m[p] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p, m[p]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
