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
	concurrency, retries           int
}

// defaultLLMKeyEnv is the variable the LLM API key is read from by default.
const defaultLLMKeyEnv = "SCCG_LLM_API_KEY"

// bindLLMFlags binds the chat flags and --embed-model.
func bindLLMFlags(fs *flag.FlagSet) *llmFlags {
	f := bindChatLLMFlags(fs, "")
	fs.StringVar(&f.embedModel, "embed-model", "", "embeddings `model`")
	return f
}

// bindChatLLMFlags binds the flags of a chat model; prefix starts each usage line
// (a stage's name in `sccg build`). --llm-base-url and --llm-url are one flag.
func bindChatLLMFlags(fs *flag.FlagSet, prefix string) *llmFlags {
	f := &llmFlags{}
	fs.StringVar(&f.url, "llm-base-url", "", prefix+"OpenAI-compatible API root, e.g. http://localhost:11434/v1 (Ollama); none: no LLM")
	fs.StringVar(&f.url, "llm-url", "", prefix+"the same as --llm-base-url")
	fs.StringVar(&f.model, "llm-model", "", prefix+"chat `model`")
	fs.StringVar(&f.keyEnv, "llm-key-env", defaultLLMKeyEnv, prefix+"environment `variable` holding the API key (unset: no key, as local servers want)")
	fs.DurationVar(&f.timeout, "llm-timeout", llm.DefaultTimeout, prefix+"limit per LLM request attempt")
	fs.IntVar(&f.concurrency, "llm-concurrency", llm.DefaultConcurrency, prefix+"LLM requests in flight at once")
	fs.IntVar(&f.retries, "llm-retries", llm.DefaultMaxRetries, prefix+"retries of a failed LLM request (429, 5xx, timeout; 0: none)")
	return f
}

// client makes the shared client for the flags, answering from and keeping
// answers in cache; nil when no --llm-url was given.
func (f *llmFlags) client(e *env, cache llm.Cache) (*llm.Client, error) {
	if f.url == "" {
		return nil, nil
	}
	retries := f.retries
	if retries == 0 {
		retries = -1 // Config's 0 means the default
	}
	opts := []llm.Option{llm.WithCache(cache), llm.WithGetenv(e.getenv)}
	if e.sleep != nil {
		opts = append(opts, llm.WithSleep(e.sleep))
	}
	c, err := llm.New(llm.Config{BaseURL: f.url, Model: f.model, EmbedModel: f.embedModel, APIKeyEnv: f.keyEnv,
		Timeout: f.timeout, Concurrency: f.concurrency, MaxRetries: retries}, opts...)
	if err != nil {
		return nil, usagef("--llm-url: %v", err)
	}
	return c, nil
}
