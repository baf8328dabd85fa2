// Package generate asks a model for the completions of a prompts file through the
// shared LLM client and writes them in the generations format. It resumes: the
// completions already in the output are not asked for again, each new completion
// is appended as soon as it arrives (a killed run loses at most the requests in
// flight), and the client's cache answers a request asked before, so a rerun in a
// fresh file sends nothing.
package generate

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"sccg/evaluate"
	"sccg/evaluate/answer"
	"sccg/evaluate/prompts"
	"sccg/internal/progress"
	"sccg/llm"
	"sccg/store"
)

// Chatter is the part of the LLM client generation uses; *llm.Client is one.
type Chatter interface {
	Chat(ctx context.Context, req llm.ChatRequest) (*llm.ChatResponse, error)
}

// Options configure Run.
type Options struct {
	// Model is the model asked, and the generations' model.
	Model string
	// N completions per prompt (sample_index 0..N-1), default 1. Each is its own
	// request, told apart in the cache by its index, so servers that ignore the n
	// parameter (Ollama) still give N.
	N int
	// Temperature, TopP and MaxTokens are the decoding parameters; nil and 0 leave
	// them to the server.
	Temperature *float64
	TopP        *float64
	MaxTokens   int
	// Workers is how many prompts are asked at once (the client bounds the
	// requests in flight too); default 4.
	Workers  int
	Progress progress.Counter
}

// RunArgs are the options as a run records them.
func (o Options) RunArgs() map[string]any {
	a := map[string]any{"model": o.Model, "n": o.N, "max_tokens": o.MaxTokens, "workers": o.Workers}
	if o.Temperature != nil {
		a["temperature"] = *o.Temperature
	}
	if o.TopP != nil {
		a["top_p"] = *o.TopP
	}
	return a
}

// Line is one line of the generations file: the generations format (with, when
// the model did not simply stop, why it ended, and a reasoning model's reasoning
// field), and the prompt it answers.
type Line struct {
	evaluate.Generation
	PromptHash string `json:"prompt_hash,omitempty"`
}

// Failure is a completion that could not be had, and why.
type Failure struct {
	SampleID    string `json:"sample_id"`
	SampleIndex int    `json:"sample_index"`
	Reason      string `json:"reason"`
}

// StoppedError ends a run that met a failure no later request can escape; the
// completions not asked for yet were not asked for.
type StoppedError struct{ Err error }

// Error is the failure.
func (e *StoppedError) Error() string { return "stopped: " + e.Err.Error() }

// Unwrap is the failure.
func (e *StoppedError) Unwrap() error { return e.Err }

// Result says what a run did.
type Result struct {
	Prompts int `json:"prompts"`
	// Wanted is how many completions the prompts ask for (prompts × N).
	Wanted int `json:"wanted"`
	// Resumed were already in the output; Written were added now, Cached of them
	// answered from the client's cache.
	Resumed int `json:"resumed"`
	Written int `json:"written"`
	Cached  int `json:"cached"`
	// Stale are lines of the output that answered another prompt (the prompts
	// changed since): they were dropped and asked again.
	Stale int `json:"stale"`
	// Empty and Truncated count new completions with no text, or cut at the token
	// limit (finish_reason length); they are kept, as the model's answers.
	Empty     int `json:"empty"`
	Truncated int `json:"truncated"`
	// Reasoning counts new answers that came with a reasoning block or field
	// (removed before the code is scored).
	Reasoning int `json:"reasoning"`
	// Failed completions gave up after the client's retries; a rerun asks again.
	Failed   int       `json:"failed"`
	Failures []Failure `json:"failures,omitempty"`
	// NotSent are the completions not asked for because the run stopped.
	NotSent int `json:"not_sent,omitempty"`
	// PromptTokens and CompletionTokens are the servers' counts for new answers.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// Counts are the result's figures as a run records them.
func (r *Result) Counts() map[string]int64 {
	return map[string]int64{"prompts": int64(r.Prompts), "wanted": int64(r.Wanted), "resumed": int64(r.Resumed),
		"written": int64(r.Written), "cached": int64(r.Cached), "failed": int64(r.Failed), "empty": int64(r.Empty),
		"truncated": int64(r.Truncated), "reasoning": int64(r.Reasoning), "stale": int64(r.Stale)}
}

// Run asks c for the completions of ps that the generations file at out does not
// hold yet, and appends them to it.
func Run(ctx context.Context, c Chatter, ps []prompts.Prompt, out string, o Options) (*Result, error) {
	if o.Model == "" {
		return nil, errors.New("generate: no model")
	}
	if o.N <= 0 {
		o.N = 1
	}
	if o.Workers <= 0 {
		o.Workers = llm.DefaultConcurrency
	}
	ctr := o.Progress
	if ctr == nil {
		ctr = progress.Nop
	}
	res := &Result{Prompts: len(ps), Wanted: len(ps) * o.N}
	hashes := map[string]string{}
	for _, p := range ps {
		hashes[p.Setting+"\x1f"+p.SampleID] = p.PromptHash
	}
	done, err := prepare(out, o.Model, hashes, res)
	if err != nil {
		return nil, err
	}
	type job struct {
		p   prompts.Prompt
		idx int
	}
	var jobs []job
	for _, p := range ps {
		for i := 0; i < o.N; i++ {
			g := evaluate.Generation{SampleID: p.SampleID, Setting: p.Setting, Model: o.Model, SampleIndex: i}
			if done[g.Key()] {
				res.Resumed++
				continue
			}
			jobs = append(jobs, job{p, i})
		}
	}
	ctr.SetTotal(int64(len(jobs)))
	defer ctr.Done()
	if len(jobs) == 0 {
		return res, nil
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	defer f.Close()
	// A failure no later request can escape (the server cannot be reached, refuses
	// the key, does not serve the model, or failed too often in a row) stops the
	// run at once: the requests not sent yet are not sent.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var mu sync.Mutex // guards f and res
	next := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < min(o.Workers, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				req := llm.ChatRequest{Model: o.Model, Messages: j.p.Messages, Temperature: o.Temperature, TopP: o.TopP,
					MaxTokens: o.MaxTokens, Sample: j.idx}
				resp, err := c.Chat(ctx, req)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				if err != nil {
					res.Failed++
					res.Failures = append(res.Failures, Failure{SampleID: j.p.SampleID, SampleIndex: j.idx, Reason: err.Error()})
					if llm.Fatal(err) {
						stop(&StoppedError{Err: err})
					}
				} else if werr := res.add(f, j.p, j.idx, o.Model, resp); werr != nil {
					res.Failed++
					res.Failures = append(res.Failures, Failure{SampleID: j.p.SampleID, SampleIndex: j.idx, Reason: werr.Error()})
				}
				mu.Unlock()
				ctr.Add(1)
			}
		}()
	}
	func() {
		defer close(next)
		for _, j := range jobs {
			select {
			case next <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		var se *StoppedError
		if errors.As(err, &se) {
			res.NotSent = len(jobs) - res.Written - res.Failed
		}
		return res, err
	}
	if err := f.Close(); err != nil {
		return res, fmt.Errorf("generate: %w", err)
	}
	if res.Failed == 0 {
		// Answers arrive in any order: once every one is in, put the file in prompt
		// order, so the same prompts always give the same file.
		if err := reorder(out, o.Model, ps); err != nil {
			return res, err
		}
	}
	return res, nil
}

// reorder rewrites the generations file with model's lines for ps in prompt and
// sample order, after every other line.
func reorder(out, model string, ps []prompts.Prompt) error {
	b, err := os.ReadFile(out)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	rank := map[string]int{}
	for i, p := range ps {
		rank[p.Setting+"\x1f"+p.SampleID] = i
	}
	type ranked struct {
		prompt, index int
		line          []byte
	}
	var others bytes.Buffer
	var mine []ranked
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l Line
		if json.Unmarshal(line, &l) == nil && l.Model == model {
			if r, ok := rank[l.Setting+"\x1f"+l.SampleID]; ok {
				mine = append(mine, ranked{r, l.SampleIndex, line})
				continue
			}
		}
		others.Write(line)
	}
	slices.SortStableFunc(mine, func(a, b ranked) int { return cmp.Or(cmp.Compare(a.prompt, b.prompt), cmp.Compare(a.index, b.index)) })
	for _, m := range mine {
		others.Write(m.line)
	}
	if bytes.Equal(others.Bytes(), b) {
		return nil
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, others.Bytes(), 0o644); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

// add appends one answer's line to f (one write, so a kill leaves whole lines) and
// counts it.
func (r *Result) add(f io.Writer, p prompts.Prompt, idx int, model string, resp *llm.ChatResponse) error {
	var ch llm.Choice
	if len(resp.Choices) > 0 {
		ch = resp.Choices[0]
	}
	l := Line{Generation: evaluate.Generation{SampleID: p.SampleID, Setting: p.Setting, Model: model, SampleIndex: idx,
		Completion: ch.Text, Reasoning: ch.Reasoning}, PromptHash: p.PromptHash}
	if ch.FinishReason != "" && ch.FinishReason != "stop" {
		l.FinishReason = ch.FinishReason
	}
	if len(resp.Choices) == 0 {
		l.FinishReason = "no_choice"
	}
	b, err := marshalLine(l)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("write generation %s #%d: %w", p.SampleID, idx, err)
	}
	r.Written++
	if resp.Cached {
		r.Cached++
	} else {
		r.PromptTokens += resp.Usage.PromptTokens
		r.CompletionTokens += resp.Usage.CompletionTokens
	}
	if ch.Text == "" {
		r.Empty++
	}
	if ch.FinishReason == "length" {
		r.Truncated++
	}
	if _, thought := answer.WithoutReasoning(ch.Text); thought || ch.Reasoning != "" {
		r.Reasoning++
	}
	return nil
}

func marshalLine(l Line) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return nil, fmt.Errorf("encode generation %s: %w", l.SampleID, err)
	}
	return b.Bytes(), nil
}

// prepare reads what the output already holds and returns the keys of the
// completions of model it holds for the current prompts. It rewrites the file
// (atomically) when it must drop something: a last line cut by a kill, or lines of
// model that answered a prompt that has changed since.
func prepare(out, model string, hashes map[string]string, res *Result) (map[string]bool, error) {
	done := map[string]bool{}
	b, err := os.ReadFile(out)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
		return done, nil
	}
	if err != nil {
		return nil, fmt.Errorf("generate: read %s: %w", out, err)
	}
	var keep bytes.Buffer
	rewrite := len(b) > 0 && b[len(b)-1] != '\n' // a kill cut the last line
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	complete := bytes.LastIndexByte(b, '\n') + 1
	read := 0
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Bytes()
		read += len(line) + 1
		if read > complete {
			break // the cut line
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(line, &l); err != nil || l.SampleID == "" {
			return nil, fmt.Errorf("generate: %s line %d is not a generation; fix or remove the file", out, ln)
		}
		if l.Model == model {
			want, ok := hashes[l.Setting+"\x1f"+l.SampleID]
			if ok && l.PromptHash != "" && l.PromptHash != want {
				res.Stale++
				rewrite = true
				continue
			}
			if done[l.Key()] {
				res.Stale++ // a repeat: the first is kept
				rewrite = true
				continue
			}
			if ok {
				done[l.Key()] = true
			}
		}
		keep.Write(line)
		keep.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("generate: read %s: %w", out, err)
	}
	if rewrite {
		tmp := out + ".tmp"
		if err := os.WriteFile(tmp, keep.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
		if err := os.Rename(tmp, out); err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
	}
	return done, nil
}

// Stage names generation runs in the store.
const Stage = "generate"

// RunStored is Run as one recorded run of the generate stage (its options and the
// output file as args, the result's counts).
func RunStored(ctx context.Context, st *store.Store, c Chatter, ps []prompts.Prompt, out string, o Options) (*Result, error) {
	args := o.RunArgs()
	args["out"], args["prompts"] = out, len(ps)
	return store.RecordRun(ctx, st, Stage, args, func(int64) (*Result, error) { return Run(ctx, c, ps, out, o) })
}
