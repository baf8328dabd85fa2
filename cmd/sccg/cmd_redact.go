package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sccg/llm"
	"sccg/provenance"
	"sccg/redact"
	"sccg/store"
)

// redactFlags are the flags of the redact stage, shared by `sccg redact` and
// `sccg build`: the on-leak policy, --also-original, and the chat model that writes
// the style-guided intents.
type redactFlags struct {
	onLeak       *string
	alsoOriginal *bool
	llm          *llmFlags
}

func bindRedactFlags(fs *flag.FlagSet, prefix string) *redactFlags {
	return &redactFlags{
		onLeak: fs.String("on-leak", redact.DefaultOnLeak, prefix+"when the model's stricter retry still leaks: strict (the offline generator writes the intent) or drop (the sample is left out)"),
		alsoOriginal: fs.Bool("also-original", false, prefix+"also write a redacted intent for samples that keep their human comment, "+
			"exported beside it as redacted_intent (the paired contamination experiment)"),
		llm: bindChatLLMFlags(fs, prefix+"the model that writes style-guided intents: "),
	}
}

// options checks the flags and turns them into the stage's options; given the
// store (cache), it also makes the shared LLM client when --llm-base-url is set.
func (f *redactFlags) options(e *env, cache llm.Cache) (redact.Options, error) {
	if *f.onLeak != redact.OnLeakStrict && *f.onLeak != redact.OnLeakDrop {
		return redact.Options{}, usagef("--on-leak must be %s or %s, not %q", redact.OnLeakStrict, redact.OnLeakDrop, *f.onLeak)
	}
	o := redact.Options{OnLeak: *f.onLeak, AlsoOriginal: *f.alsoOriginal}
	lf := f.llm
	switch {
	case lf.url == "" && lf.model != "":
		return o, usagef("--llm-model needs --llm-base-url")
	case lf.url == "":
		return o, nil
	case lf.model == "":
		return o, usagef("--llm-base-url needs --llm-model")
	case lf.concurrency < 1 || lf.timeout <= 0:
		return o, usagef("--llm-concurrency must be 1 or more and --llm-timeout above 0")
	case cache == nil:
		return o, nil // flags checked; the client is made once the store is open
	}
	c, err := lf.client(e, cache)
	if err != nil {
		return o, err
	}
	o.LLM, o.Model, o.Workers = c, lf.model, lf.concurrency
	return o, nil
}

func runRedact(ctx context.Context, e *env, args []string) error {
	fs := e.flags("redact", "[--llm-base-url URL --llm-model M] [--on-leak strict|drop] [--also-original]\n\n"+
		"Writes the intent of every function decontam kept: its human comment when that\n"+
		"states the function's goal (LeakChecked, the report recorded), else an intent that\n"+
		"passes LeakCheck, written from the code with its ground truth masked — by the model\n"+
		"(style-guided, one stricter retry on a leak) or, without one, by the offline\n"+
		"generator. Samples already built are rebuilt with the new intents.")
	rf := bindRedactFlags(fs, "")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("redact takes no arguments, got %q", pos)
	}
	if _, err := rf.options(e, nil); err != nil {
		return err
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	w, err := provenance.WatchDecisions(ctx, s)
	if err != nil {
		return err
	}
	opt, err := rf.options(e, s)
	if err != nil {
		return err
	}
	opt.Progress = e.progress().Start("redact", 0)
	res, err := redact.Run(ctx, s, opt)
	if err == nil && res.Functions == 0 {
		err = fmt.Errorf("redact: the store has no kept functions (run sccg decontam first)")
	}
	if err == nil {
		err = rebuildSamples(ctx, e, s)
	}
	rej, err := e.reported(ctx, w, err)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSONWith(res, rej)
	}
	fmt.Fprintf(e.stdout, "intents of %d kept functions (%d already current, %d attempts made)\n", res.Functions, res.Reused, res.Attempts)
	fmt.Fprintf(e.stdout, "  by path: %s\n", formatPaths(res.Paths))
	if res.OriginalLeaked > 0 {
		fmt.Fprintf(e.stdout, "  %d kept human comments name part of their ground truth (recorded, kept)\n", res.OriginalLeaked)
	}
	if res.Paired > 0 {
		fmt.Fprintf(e.stdout, "  %d redacted intents beside a human comment (--also-original)\n", res.Paired)
	}
	if opt.LLM != nil {
		fmt.Fprintf(e.stdout, "  model %s: %d answers from the server, %d from the cache, %d failed; %d prompt and %d completion tokens\n",
			opt.Model, res.LLMRequests, res.LLMCached, res.LLMErrors, res.PromptTokens, res.CompletionTokens)
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
	for _, p := range slices.Sorted(maps.Keys(m)) {
		if !strings.Contains(strings.Join(order, " "), p) && m[p] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p, m[p]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
