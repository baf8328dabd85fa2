package evaluate

import (
	"context"

	"sccg/evaluate/jsbox"
	"sccg/lang"
)

// JavaScriptRunners are the runners of JavaScript and TypeScript samples for
// Config.Runners: evaluate/jsbox's worker processes, a fresh runtime per
// completion, esbuild reading TypeScript (and TSX) for TypeScript samples and JSX
// for JavaScript ones. opts.Dialect is set per language; its Command must start
// a worker (sccg itself by default, which serves jsbox.WorkerArg).
func JavaScriptRunners(opts jsbox.Options) map[lang.Name]StartRunner {
	start := func(d lang.Dialect) StartRunner {
		return func(ctx context.Context) (Runner, error) {
			o := opts
			o.Dialect = d
			return jsbox.New(ctx, o)
		}
	}
	return map[lang.Name]StartRunner{lang.JavaScript: start(lang.DialectJS), lang.TypeScript: start(lang.DialectTS)}
}
