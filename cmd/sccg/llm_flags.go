package main

import (
	"flag"
	"time"

	"sccg/llm"
)

// llmFlags are the flags of a command that talks to an OpenAI-compatible LLM
// server through the shared client.
type llmFlags struct {
	url, model, embedModel, keyEnv string
	timeout                        time.Duration
	concurrency                    int
}

// defaultLLMKeyEnv is the variable the LLM API key is read from by default.
const defaultLLMKeyEnv = "SCCG_LLM_API_KEY"

func bindLLMFlags(fs *flag.FlagSet) *llmFlags {
	f := &llmFlags{}
	fs.StringVar(&f.url, "llm-url", "", "OpenAI-compatible API root, e.g. http://localhost:11434/v1 (Ollama); none: no LLM")
	fs.StringVar(&f.model, "llm-model", "", "chat `model`")
	fs.StringVar(&f.embedModel, "embed-model", "", "embeddings `model`")
	fs.StringVar(&f.keyEnv, "llm-key-env", defaultLLMKeyEnv, "environment `variable` holding the API key (unset: no key, as local servers want)")
	fs.DurationVar(&f.timeout, "llm-timeout", llm.DefaultTimeout, "limit per LLM request attempt")
	fs.IntVar(&f.concurrency, "llm-concurrency", llm.DefaultConcurrency, "LLM requests in flight at once")
	return f
}

// client makes the shared client for the flags, answering from and keeping
// answers in cache; nil when no --llm-url was given.
func (f *llmFlags) client(e *env, cache llm.Cache) (*llm.Client, error) {
	if f.url == "" {
		return nil, nil
	}
	c, err := llm.New(llm.Config{BaseURL: f.url, Model: f.model, EmbedModel: f.embedModel, APIKeyEnv: f.keyEnv,
		Timeout: f.timeout, Concurrency: f.concurrency}, llm.WithCache(cache), llm.WithGetenv(e.getenv))
	if err != nil {
		return nil, usagef("--llm-url: %v", err)
	}
	return c, nil
}
