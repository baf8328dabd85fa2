// Package frontends is the registry of sccg's languages: it maps a language, or a
// source file's path, to the lang.Frontend that reads it. It is the one package
// that knows each language's implementation (lang/python for Python,
// lang/javascript for JavaScript and TypeScript); the stages and the evaluator
// reach a language only through it and package lang.
package frontends

import (
	"fmt"
	"strings"

	"sccg/lang"
	"sccg/lang/javascript"
	"sccg/lang/python"
	"sccg/release"
)

// For returns the frontend that reads n (TypeScript is read by JavaScript's).
func For(n lang.Name) (lang.Frontend, error) {
	switch n.Family() {
	case lang.Python:
		return python.Frontend{}, nil
	case lang.JavaScript:
		return javascript.Frontend{}, nil
	}
	return nil, fmt.Errorf("no frontend reads %q", n)
}

// MustFor is For for a language known to have a frontend (a lang.Name constant);
// it panics otherwise.
func MustFor(n lang.Name) lang.Frontend {
	f, err := For(n)
	if err != nil {
		panic(err)
	}
	return f
}

// ForPath returns the frontend, language and dialect of a source file by its path;
// ok is false for a file no frontend reads.
func ForPath(path string) (f lang.Frontend, n lang.Name, d lang.Dialect, ok bool) {
	n, d, ok = lang.ForPath(path)
	if !ok {
		return nil, "", "", false
	}
	f, err := For(n)
	if err != nil {
		return nil, "", "", false
	}
	return f, n, d, true
}

// OfRecord returns the frontend of a record whose language field may be empty
// (releases and stores written before there was a second language: Python).
func OfRecord(language string) (lang.Frontend, error) { return For(lang.Of(language)) }

// ForRecord returns the frontend of a benchmark record and the dialect of its code:
// its language field ("" for a record written before there was a second language:
// Python), the dialect read off its file's path where that names one.
func ForRecord(r *release.Record) (lang.Frontend, lang.Dialect, error) {
	n := lang.Of(r.Language)
	f, err := For(n)
	if err != nil {
		return nil, "", fmt.Errorf("sample %s: %w", r.SampleID, err)
	}
	return f, DialectOf(n, r.GitHubInfo.FilePath), nil
}

// DialectOf is the dialect of code of language n from a file at path: the path's
// when it names one of n's dialects, else n's plain one.
func DialectOf(n lang.Name, path string) lang.Dialect {
	if pn, d, ok := lang.ForPath(path); ok && pn == n {
		return d
	}
	switch n {
	case lang.JavaScript:
		return lang.DialectJS
	case lang.TypeScript:
		return lang.DialectTS
	}
	return lang.DialectPython
}

// EffectiveLOC counts a record's effective lines of code by its language's rules;
// a record of a language no frontend reads counts its non-blank lines.
func EffectiveLOC(r *release.Record) int {
	f, _, err := ForRecord(r)
	if err != nil {
		n := 0
		for _, l := range strings.Split(r.Code.CompleteFunction, "\n") {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
		return n
	}
	return f.EffectiveLOC(r.Code.CompleteFunction)
}
