package evaluate

import (
	"context"
	"sync"

	"sccg/evaluate/sandbox"
)

// runCache runs each distinct completion once: identical (sample, function, code)
// get one sandbox run and share its result. A sample has one language, so one
// runner, whose harness version and limits are fixed for the run: they are part of
// the key by construction. At temperature > 0 many of a sample's n completions are the same
// text; with reuse off every completion runs.
type runCache struct {
	off    bool
	mu     sync.Mutex
	m      map[string]*cachedRun
	runs   int
	reused int
}

type cachedRun struct {
	done chan struct{}
	res  sandbox.Result
	err  error
}

func newRunCache(off bool) *runCache {
	return &runCache{off: off, m: map[string]*cachedRun{}}
}

// run is runner.Run of code and function for sample (runner is the sample
// language's), or the result of the same run already made (or under way).
func (c *runCache) run(ctx context.Context, runner Runner, sample, code, function string) (sandbox.Result, error) {
	if c.off {
		c.mu.Lock()
		c.runs++
		c.mu.Unlock()
		return runner.Run(ctx, code, function)
	}
	key := sample + "\x00" + function + "\x00" + code
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return sandbox.Result{Requests: []sandbox.Request{}}, ctx.Err()
		}
		if e.err == nil {
			c.mu.Lock()
			c.reused++
			c.mu.Unlock()
			return e.res, nil
		}
		return runner.Run(ctx, code, function)
	}
	e := &cachedRun{done: make(chan struct{})}
	c.m[key] = e
	c.runs++
	c.mu.Unlock()
	res, err := runner.Run(ctx, code, function)
	e.res, e.err = res, err
	if err != nil || res.Status == sandbox.StatusKilled {
		c.mu.Lock()
		delete(c.m, key) // cancelled or failed: whoever waits runs it again
		c.mu.Unlock()
		e.err = context.Canceled
	}
	close(e.done)
	return res, err
}

// counts are how many runs took place and how many results were reused.
func (c *runCache) counts() (runs, reused int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs, c.reused
}

// RunCounts say how an evaluation's completions ran: how many sandbox runs there
// were, how many completions reused the run of an identical one, and how batching
// placed the runs (sandbox.BatchStats).
type RunCounts struct {
	Runs   int `json:"runs"`
	Reused int `json:"reused"`
	sandbox.BatchStats
}

func runCounts(c *runCache, b sandbox.BatchStats) *RunCounts {
	runs, reused := c.counts()
	return &RunCounts{Runs: runs, Reused: reused, BatchStats: b}
}
