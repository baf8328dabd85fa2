package evaluate

import (
	"context"
	"sync"

	"sccg/evaluate/jsbox"
	"sccg/evaluate/sandbox"
	"sccg/lang"
)

// JavaScriptRunners are the runners of JavaScript and TypeScript samples for
// Config.Runners: evaluate/jsbox's worker processes, a fresh runtime per
// completion, esbuild reading TypeScript (and TSX) for TypeScript samples and JSX
// for JavaScript ones. The two languages share one pool of opts.Workers workers,
// started by whichever is needed first and closed when both are done, so a run of
// both languages on two cores has two workers, not four. opts.Dialect is set per
// completion; its Command must start a worker (sccg itself by default, which
// serves jsbox.WorkerArg).
func JavaScriptRunners(opts jsbox.Options) map[lang.Name]StartRunner {
	pool := &sharedPool{opts: opts}
	return map[lang.Name]StartRunner{lang.JavaScript: pool.starter(lang.DialectJS), lang.TypeScript: pool.starter(lang.DialectTS)}
}

// sharedPool is one jsbox.Runner that several languages' runners share.
type sharedPool struct {
	opts jsbox.Options
	mu   sync.Mutex
	r    *jsbox.Runner
	refs int
}

// starter starts (or joins) the pool for completions of dialect d.
func (p *sharedPool) starter(d lang.Dialect) StartRunner {
	return func(ctx context.Context) (Runner, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.r == nil {
			r, err := jsbox.New(ctx, p.opts)
			if err != nil {
				return nil, err
			}
			p.r = r
		}
		p.refs++
		return &dialectRunner{pool: p, d: d}, nil
	}
}

// dialectRunner runs completions of one dialect on a shared pool.
type dialectRunner struct {
	pool   *sharedPool
	d      lang.Dialect
	closed sync.Once
}

// Run runs one completion in the pool, read as the runner's dialect.
func (r *dialectRunner) Run(ctx context.Context, code, function string) (sandbox.Result, error) {
	return r.pool.r.RunDialect(ctx, r.d, code, function)
}

// Isolation is the pool's.
func (r *dialectRunner) Isolation() string { return r.pool.r.Isolation() }

// Close leaves the pool; the last to leave closes it.
func (r *dialectRunner) Close() error {
	var err error
	r.closed.Do(func() {
		p := r.pool
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.refs--; p.refs == 0 && p.r != nil {
			err = p.r.Close()
			p.r = nil
		}
	})
	return err
}
