package javascript

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"sccg/lang"
)

// Frontend is JavaScript's and TypeScript's implementation of lang.Frontend:
// tree-sitter's JavaScript (with JSX), TypeScript and TSX grammars for extraction
// and masking, Node 20's built-in modules, npm package names for dependencies,
// and esbuild's parser as the judge of syntax.
type Frontend struct{}

var _ lang.Frontend = Frontend{}

// Language is lang.JavaScript, the family TypeScript belongs to.
func (Frontend) Language() lang.Name { return lang.JavaScript }

// Extract reads the file in the dialect its path names (plain JavaScript when it
// names none), with the repository's other files as its own modules.
func (Frontend) Extract(ctx context.Context, path string, content []byte, opts lang.ExtractOptions) (*lang.Result, error) {
	d := lang.DialectJS
	if n, pd, ok := lang.ForPath(path); ok && n.Family() == lang.JavaScript {
		d = pd
	}
	return Extract(ctx, content, Options{Dialect: d, Stars: opts.Stars, Forks: opts.Forks, Timeout: opts.Timeout,
		Path: path, RepoPaths: opts.RepoPaths})
}

// Imports is ImportedPackages.
func (Frontend) Imports(ctx context.Context, d lang.Dialect, code []byte) ([]string, error) {
	return ImportedPackages(ctx, d, code)
}

// Builtin reports a module Node 20 provides (current); no JavaScript module is
// built into an older runtime only (legacy is always false).
func (Frontend) Builtin(module string) (current, legacy bool) { return IsBuiltin(module), false }

// npmClients are the packages and Node modules whose import brings an HTTP client.
var npmClients = map[string]bool{"axios": true, "node-fetch": true, "got": true, "superagent": true, "ky": true,
	"undici": true, "cross-fetch": true, "isomorphic-fetch": true, "request": true, "request-promise": true,
	"request-promise-native": true, "needle": true, "unirest": true, "jquery": true, "http": true, "https": true,
	"ky-universal": true, "@angular/common": true, "wretch": true, "ofetch": true, "make-fetch-happen": true,
	"phin": true, "bent": true, "redaxios": true}

// HTTPClient reports an import of an HTTP client's package (a subpath of it
// too: axios/dist/node/axios.cjs) or of Node's http and https.
func (Frontend) HTTPClient(module string) bool {
	return npmClients[packageName(strings.TrimPrefix(module, "node:"))]
}

// GlobalClients are the runtime's fetch and XMLHttpRequest, and axios and jQuery
// as a page's script tags provide them.
func (Frontend) GlobalClients() []string {
	return []string{"fetch", "XMLHttpRequest", "axios", "$", "jQuery"}
}

// EffectiveLOC is the package's EffectiveLOC.
func (Frontend) EffectiveLOC(code string) int { return EffectiveLOC(code) }

// CommentedRequests is the package's CommentedRequests.
func (Frontend) CommentedRequests(ctx context.Context, d lang.Dialect, code []byte) ([]int, error) {
	return CommentedRequests(ctx, d, code)
}

// Mask is the package's Mask.
func (Frontend) Mask(ctx context.Context, d lang.Dialect, code []byte, fn string, rewrite func(lang.Piece) []lang.Edit) (*lang.Masked, error) {
	return Mask(ctx, d, code, fn, rewrite)
}

// IsIdentifier is the package's IsIdentifier.
func (Frontend) IsIdentifier(s string) bool { return IsIdentifier(s) }

// NewChecker returns esbuild's parser as the judge of syntax; tool must be "" or
// "esbuild".
func (Frontend) NewChecker(_ context.Context, tool string) (lang.Checker, error) {
	if tool != "" && tool != "esbuild" {
		return nil, fmt.Errorf("javascript syntax checker %q: only esbuild is available", tool)
	}
	return checker{}, nil
}

// checker judges code with esbuild's Transform in the dialect's loader: what
// esbuild refuses, the evaluator's JavaScript runner (which transforms with
// esbuild) cannot run.
type checker struct{}

func (checker) Check(ctx context.Context, d lang.Dialect, code string) (lang.SyntaxCheck, error) {
	if err := ctx.Err(); err != nil {
		return lang.SyntaxCheck{}, err
	}
	loader := api.LoaderJSX // JSX is a superset of plain JavaScript's syntax
	switch d {
	case lang.DialectTS:
		loader = api.LoaderTS
	case lang.DialectTSX:
		loader = api.LoaderTSX
	}
	r := api.Transform(code, api.TransformOptions{Loader: loader, LogLevel: api.LogLevelSilent})
	sc := lang.SyntaxCheck{Tool: "esbuild", Version: esbuildVersion(), OK: len(r.Errors) == 0}
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		sc.Error = "SyntaxError: " + e.Text
		if e.Location != nil {
			sc.Line = e.Location.Line
		}
	}
	return sc, nil
}

func (checker) Tool() string    { return "esbuild" }
func (checker) Version() string { return esbuildVersion() }
func (checker) Close() error    { return nil }

// esbuildVersion is the version of the esbuild module built into the binary.
var esbuildVersion = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/evanw/esbuild" {
				return strings.TrimPrefix(m.Version, "v")
			}
		}
	}
	return esbuildModuleVersion
})

// esbuildModuleVersion is go.mod's esbuild version, for binaries built without
// module information (tests).
const esbuildModuleVersion = "0.28.2"
