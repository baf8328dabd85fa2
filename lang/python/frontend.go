package python

import (
	"context"
	"strings"

	"sccg/lang"
	"sccg/lang/internal/pycompile"
)

// Frontend is Python's implementation of lang.Frontend: tree-sitter's Python
// grammar for extraction and masking, the standard library's module list, and the
// evaluator's interpreter (package pycompile) as the judge of syntax.
type Frontend struct{}

var _ lang.Frontend = Frontend{}

// Language is lang.Python.
func (Frontend) Language() lang.Name { return lang.Python }

// Extract runs Extract with the repository's own modules found from its paths.
func (Frontend) Extract(ctx context.Context, path string, content []byte, opts lang.ExtractOptions) (*lang.Result, error) {
	return Extract(ctx, content, Options{Stars: opts.Stars, Forks: opts.Forks, Timeout: opts.Timeout,
		LocalModules: RepoModules(path, opts.RepoPaths)})
}

// Imports is ImportedModules.
func (Frontend) Imports(ctx context.Context, _ lang.Dialect, code []byte) ([]string, error) {
	return ImportedModules(ctx, code)
}

// Builtin reports a module of the standard library of the Python 3 the evaluator
// runs (current), or of Python 2 only (legacy: urllib2, httplib).
func (Frontend) Builtin(module string) (current, legacy bool) {
	return IsStdlib(module), IsPython2Stdlib(module)
}

// httpClients are the modules whose import brings an HTTP client; of urllib and
// http, only the submodule that makes requests.
var httpClients = map[string]bool{"requests": true, "httpx": true, "aiohttp": true, "urllib": true,
	"urllib3": true, "http": true}

// HTTPClient reports an import of requests, httpx, aiohttp, urllib3,
// urllib(.request) or http.client.
func (Frontend) HTTPClient(module string) bool {
	top, _, _ := strings.Cut(module, ".")
	return httpClients[top] && (top != "urllib" || module == "urllib.request" || module == "urllib") &&
		(top != "http" || module == "http.client")
}

// GlobalClients is nil: Python has no HTTP client without an import.
func (Frontend) GlobalClients() []string { return nil }

// EffectiveLOC is the package's EffectiveLOC.
func (Frontend) EffectiveLOC(code string) int { return EffectiveLOC(code) }

// CommentedRequests is the package's CommentedRequests.
func (Frontend) CommentedRequests(ctx context.Context, _ lang.Dialect, code []byte) ([]int, error) {
	return CommentedRequests(ctx, code)
}

// Mask is the package's Mask.
func (Frontend) Mask(ctx context.Context, _ lang.Dialect, code []byte, fn string, rewrite func(lang.Piece) []lang.Edit) (*lang.Masked, error) {
	return Mask(ctx, code, fn, rewrite)
}

// IsIdentifier is the package's IsIdentifier.
func (Frontend) IsIdentifier(s string) bool { return IsIdentifier(s) }

// NewChecker starts a compile server on the interpreter tool names ("" means
// pycompile.DefaultPython on PATH).
func (Frontend) NewChecker(ctx context.Context, tool string) (lang.Checker, error) {
	c, err := pycompile.Start(ctx, tool)
	if err != nil {
		return nil, err
	}
	return checker{c}, nil
}

// checker is a pycompile.Checker seen as a lang.Checker.
type checker struct{ c *pycompile.Checker }

func (k checker) Check(ctx context.Context, _ lang.Dialect, code string) (lang.SyntaxCheck, error) {
	r, err := k.c.Check(ctx, code)
	if err != nil {
		return lang.SyntaxCheck{}, err
	}
	return lang.SyntaxCheck{Tool: k.Tool(), Version: k.c.Version, OK: r.OK, Error: r.Error, Line: r.Line}, nil
}

func (checker) Tool() string      { return "Python" }
func (k checker) Version() string { return k.c.Version }
func (k checker) Close() error    { return k.c.Close() }
