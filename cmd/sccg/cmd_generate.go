package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"sccg/evaluate/generate"
	"sccg/evaluate/prompts"
	"sccg/llm"
)

// floatFlag is an optional float flag: unset leaves the value to the server.
type floatFlag struct{ v *float64 }

func (f *floatFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f *floatFlag) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	f.v = &v
	return nil
}

func runGenerate(ctx context.Context, e *env, args []string) error {
	fs := e.flags("generate", "--prompts FILE --model M --base-url URL --out FILE [--n N --temperature T --top-p P --max-tokens K --concurrency C]\n\n"+
		"Asks an OpenAI-compatible server (Ollama, vLLM, llama.cpp server, LM Studio, DeepSeek, OpenAI) for the\n"+
		"completions of a prompts file. Completions already in --out are skipped; answers are cached in the store\n"+
		"(--db), so a rerun sends nothing it sent before. The key is read from the variable --key-env names.")
	promptsFile := fs.String("prompts", "", "prompts JSONL `file` (from 'sccg prompts')")
	model := fs.String("model", "", "model name as the server knows it")
	baseURL := fs.String("base-url", "", "API root, e.g. http://localhost:11434/v1")
	out := fs.String("out", "", "generations JSONL `file` to write (appended to, resumed)")
	keyEnv := fs.String("key-env", "", "name of the environment `variable` holding the API key (none for local servers)")
	n := fs.Int("n", 1, "completions per prompt (sample_index 0..n-1)")
	var temp, topP floatFlag
	fs.Var(&temp, "temperature", "sampling temperature (unset: the server's default; the paper uses 0)")
	fs.Var(&topP, "top-p", "nucleus sampling (unset: the server's default; the paper uses 1)")
	maxTokens := fs.Int("max-tokens", 0, "cap on each completion's tokens (0: the server's default)")
	concurrency := fs.Int("concurrency", llm.DefaultConcurrency, "requests in flight at once")
	timeout := fs.Duration("timeout", llm.DefaultTimeout, "limit per request attempt")
	retries := fs.Int("retries", llm.DefaultMaxRetries, "retries of a failed attempt (429, 5xx, timeout); 0: none")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	switch {
	case *promptsFile == "" || *model == "" || *baseURL == "" || *out == "":
		return usagef("--prompts, --model, --base-url and --out are required")
	case *n < 1:
		return usagef("--n must be at least 1")
	case *concurrency < 1:
		return usagef("--concurrency must be at least 1")
	}
	ps, err := prompts.ReadFile(*promptsFile)
	if err != nil {
		return err
	}
	st, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if *retries <= 0 {
		*retries = -1 // llm reads 0 as its default and a negative count as none
	}
	client, err := llm.New(llm.Config{BaseURL: *baseURL, Model: *model, APIKeyEnv: *keyEnv, Timeout: *timeout,
		MaxRetries: *retries, Concurrency: *concurrency}, llm.WithCache(st), llm.WithGetenv(e.getenv))
	if err != nil {
		return usagef("%v", err)
	}
	o := generate.Options{Model: *model, N: *n, Temperature: temp.v, TopP: topP.v, MaxTokens: *maxTokens, Workers: *concurrency,
		Progress: e.progress().Start("generate", 0)}
	start := time.Now()
	res, err := generate.RunStored(ctx, st, client, ps, *out, o)
	u := client.Usage()
	if res != nil && !e.json {
		fmt.Fprintf(e.stderr, "sccg generate: %d requests (%d retries), %d answers from the cache, %d prompt + %d completion tokens, %s\n",
			u.Requests, u.Retries, u.CacheHits, u.PromptTokens, u.CompletionTokens, time.Since(start).Round(time.Millisecond))
		if !errors.As(err, new(*generate.StoppedError)) {
			for _, f := range res.Failures {
				fmt.Fprintf(e.stderr, "sccg generate: failed %s #%d: %s\n", f.SampleID, f.SampleIndex, f.Reason)
			}
		}
	}
	var stopped *generate.StoppedError
	if errors.As(err, &stopped) {
		return fmt.Errorf("%w (%d completion(s) written, %d not asked for)", err, res.Written, res.NotSent)
	}
	if err != nil {
		return err
	}
	if e.json {
		if err := e.printJSON(map[string]any{"result": res, "usage": u, "out": *out}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%s: %d of %d completions in %s (%d resumed, %d new of which %d cached; %d empty, %d truncated, %d with reasoning)\n",
			*model, res.Resumed+res.Written, res.Wanted, *out, res.Resumed, res.Written, res.Cached, res.Empty, res.Truncated, res.Reasoning)
	}
	if res.Failed > 0 {
		return fmt.Errorf("%d completion(s) failed after retries; run it again to retry them", res.Failed)
	}
	return nil
}
