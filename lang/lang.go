// Package lang is the seam where a programming language plugs into sccg. A language
// is a Frontend: it extracts request functions from a file with their static facts,
// lists a program's imports and tells its built-in modules, counts effective lines,
// masks code for intents and judges syntax as the evaluator will. The stages and the
// evaluator see languages only through this package and the registry in package
// frontends; what a Frontend returns (Result, Function, Facts, Piece, Masked) is
// defined here once, for every language.
//
// It is a contract between stages and with the store (Facts are stored as JSON), so
// it needs no tree-sitter and builds without cgo.
package lang

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Name is a language as the release format's `language` field spells it.
type Name string

// The languages sccg builds and evaluates.
const (
	Python     Name = "python"
	JavaScript Name = "javascript"
	TypeScript Name = "typescript"
)

// Dialect is a source file's flavour within its language, for the parser: plain
// JavaScript and JSX share a grammar; TypeScript and TSX do not.
type Dialect string

// The dialects, one per grammar a frontend may pick.
const (
	DialectPython Dialect = "py"
	DialectJS     Dialect = "js" // .js .mjs .cjs .jsx (the JavaScript grammar parses JSX)
	DialectTS     Dialect = "ts"
	DialectTSX    Dialect = "tsx"
)

// extensions maps a file extension (lower case, with its dot) to its language and
// dialect.
var extensions = map[string]struct {
	name    Name
	dialect Dialect
}{
	".py":  {Python, DialectPython},
	".pyw": {Python, DialectPython}, // a Python script run without a console (Windows)
	".js":  {JavaScript, DialectJS},
	".mjs": {JavaScript, DialectJS},
	".cjs": {JavaScript, DialectJS},
	".jsx": {JavaScript, DialectJS},
	".ts":  {TypeScript, DialectTS},
	".mts": {TypeScript, DialectTS},
	".cts": {TypeScript, DialectTS},
	".tsx": {TypeScript, DialectTSX},
}

// ForPath returns the language and dialect of a source file by its extension;
// ok is false for a file no frontend reads. A TypeScript declaration file (.d.ts)
// holds no code and is not read.
func ForPath(p string) (name Name, dialect Dialect, ok bool) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/")))
	if strings.HasSuffix(base, ".d.ts") || strings.HasSuffix(base, ".d.mts") || strings.HasSuffix(base, ".d.cts") {
		return "", "", false
	}
	e, ok := extensions[path.Ext(base)]
	return e.name, e.dialect, ok
}

// Extensions lists the file extensions of a language, with their dots, sorted.
func Extensions(n Name) []string {
	var out []string
	for ext, e := range extensions {
		if e.name == n {
			out = append(out, ext)
		}
	}
	slices.Sort(out)
	return out
}

// Names are the languages sccg knows, Python first.
func Names() []Name { return []Name{Python, JavaScript, TypeScript} }

// Valid reports whether n is a language sccg knows.
func Valid(n Name) bool { return n == Python || n == JavaScript || n == TypeScript }

// Of returns the language of a record whose language field may be empty (releases
// and stores written before there was a second language): "" means Python.
func Of(s string) Name {
	if s == "" {
		return Python
	}
	return Name(strings.ToLower(s))
}

// Family is the language whose frontend reads n: TypeScript is read by the
// JavaScript frontend, whose grammars include TypeScript's.
func (n Name) Family() Name {
	if n == TypeScript {
		return JavaScript
	}
	return n
}

// Frontend is one language's implementation of the parts a stage needs. Every
// method is safe for concurrent use and never panics on any input.
type Frontend interface {
	// Language is the family the frontend reads (Python, JavaScript).
	Language() Name

	// Extract finds the request functions of one file. path is the file's path in
	// its repository (it picks the dialect and what counts as the repository's own
	// modules). Content that is not text yields ErrBinary; a parse over the
	// deadline yields ErrTimeout.
	Extract(ctx context.Context, path string, content []byte, opts ExtractOptions) (*Result, error)

	// Imports lists the top-level modules (Python) or packages (JavaScript: the
	// package name of a bare specifier, "@scope/name" for a scoped one) the code
	// imports, relative imports left out, in source order without repeats.
	Imports(ctx context.Context, d Dialect, code []byte) ([]string, error)
	// Builtin reports whether the language's runtime provides a module without an
	// install: current for the runtime the evaluator runs (Python 3's standard
	// library, Node's built-in modules), legacy for an older version only (Python
	// 2's urllib2).
	Builtin(module string) (current, legacy bool)
	// HTTPClient reports whether importing module (as the code writes it:
	// "urllib.request", "node:https", "axios/dist/node/axios.cjs") brings an HTTP
	// client, which Dep asks a program to import; GlobalClients are the clients a
	// program may use without an import (JavaScript's fetch), nil where there are
	// none.
	HTTPClient(module string) bool
	GlobalClients() []string

	// EffectiveLOC counts the lines that are neither blank nor comments nor
	// docstrings.
	EffectiveLOC(code string) int

	// CommentedRequests returns the lines of request calls that sit in comments
	// (commented-out code), for verification.
	CommentedRequests(ctx context.Context, d Dialect, code []byte) ([]int, error)

	// Mask offers every identifier, literal string part, pair-value number and
	// comment of code to rewrite, applies the edits rewrite returns and checks that
	// the result still parses (when code did): ErrMaskBrokeSyntax otherwise. fn
	// names the function whose name, parameters and returns Masked reports.
	Mask(ctx context.Context, d Dialect, code []byte, fn string, rewrite func(Piece) []Edit) (*Masked, error)
	// IsIdentifier reports whether s may stand as a name in the language.
	IsIdentifier(s string) bool

	// Parse parses code of dialect d into a Tree carrying the dialect's Grammar,
	// for the analyses that work on any language (CodeBLEU, the credential scan).
	// Code that does not parse still yields a tree (Tree.HasError); the error is
	// for a parse cut short by ctx (ErrTimeout).
	Parse(ctx context.Context, d Dialect, code []byte) (*Tree, error)
	// Grammar is what those analyses need to know of dialect d's grammar and
	// tokens; the same value every call.
	Grammar(d Dialect) *Grammar

	// NewChecker starts the judge of the syntax the evaluator accepts (for
	// Python, the evaluator's interpreter; for JavaScript, esbuild's parser).
	// tool names the program where the language has a choice ("" is the default).
	// The caller closes it.
	NewChecker(ctx context.Context, tool string) (Checker, error)
}

// Checker judges extracted code as the evaluator's language runtime would.
type Checker interface {
	// Check judges one function's self-contained code; its Tool and Version are
	// the checker's.
	Check(ctx context.Context, d Dialect, code string) (SyntaxCheck, error)
	// Tool is the checker's name as a person reads it ("Python", "esbuild") and
	// Version its version ("3.11.7", "0.28.2").
	Tool() string
	Version() string
	Close() error
}

// ExtractOptions tune Frontend.Extract.
type ExtractOptions struct {
	Stars, Forks int           // repository signals for the quality score
	Timeout      time.Duration // per file; 0 means DefaultTimeout
	// RepoPaths are the paths of the repository's other files of the same
	// language: imports of them are the repository's own, not third-party.
	RepoPaths []string
}

// DefaultTimeout bounds the work on one file when ExtractOptions.Timeout is 0.
const DefaultTimeout = 20 * time.Second

// Result is what one file yields.
type Result struct {
	Language     Name       `json:"language"`
	Encoding     string     `json:"encoding"`  // utf-8 | latin-1
	SyntaxOK     bool       `json:"syntax_ok"` // the whole file parsed without ERROR/MISSING nodes
	SyntaxErrors []int      `json:"syntax_errors,omitempty"`
	Functions    []Function `json:"functions"`
}

// Function statuses.
const (
	StatusCandidate = "candidate"
	StatusRejected  = "rejected"
)

// Function is one request-making function (or the top-level script code that makes
// requests), ready to be stored.
type Function struct {
	Name      string `json:"name"`
	QualName  string `json:"qualname"`
	ClassName string `json:"class_name,omitempty"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	IsAsync   bool   `json:"is_async"`
	Source    string `json:"source"` // as written (decorators included)
	Code      string `json:"code"`   // self-contained
	CodeHash  string `json:"code_hash"`
	// Status is StatusCandidate or StatusRejected, with RejectReason.
	Status       string `json:"status"`
	RejectReason string `json:"reject_reason,omitempty"`
	Facts        Facts  `json:"facts"`
}

// ErrBinary is returned for content that is not text.
var ErrBinary = errors.New("binary file")

// ErrTimeout is returned when parsing or analysing a file took longer than allowed.
var ErrTimeout = errors.New("parse timed out")

// ErrMaskBrokeSyntax is returned when masked code would no longer parse.
var ErrMaskBrokeSyntax = errors.New("masked code no longer parses")

// Decode turns file content into UTF-8 text: valid UTF-8 is kept (a BOM dropped),
// anything else is decoded as latin-1. Content with NUL bytes is binary.
func Decode(content []byte) ([]byte, string, error) {
	head := content
	if len(head) > 8000 {
		head = head[:8000]
	}
	for _, b := range head {
		if b == 0 {
			return nil, "", ErrBinary
		}
	}
	content = []byte(strings.TrimPrefix(string(content), "\ufeff"))
	if utf8.Valid(content) {
		return content, "utf-8", nil
	}
	out := make([]rune, len(content))
	for i, b := range content {
		out[i] = rune(b)
	}
	return []byte(string(out)), "latin-1", nil
}

// PieceKind is the kind of source text Mask offers for rewriting.
type PieceKind uint8

// Kinds of pieces.
const (
	// PieceIdentifier is a name: a variable, function, parameter, attribute, import
	// or keyword-argument name. Its rewrite must stay an identifier.
	PieceIdentifier PieceKind = iota + 1
	// PieceString is the literal text of a string, or of one literal part of an
	// f-string or template literal, as written (escape sequences not decoded).
	PieceString
	// PieceNumber is a number that is the value of a dict or object pair or of a
	// keyword argument of dict(...); a rewrite may turn it into a quoted string.
	PieceNumber
	// PieceComment is a comment's text after its '#' or '//' (or inside '/* */').
	PieceComment
)

// Piece is one stretch of source text Mask offers for rewriting.
type Piece struct {
	Kind PieceKind
	Text string
	// Whole is set for a string that has no interpolation: Text is all of it.
	Whole bool
	// Key is set for the key of a dict display or object literal and for a
	// keyword of dict(...).
	Key bool
	// PairKey is the literal key (string or dict(...) keyword) of the pair whose
	// value this piece is; "" when it is not a pair's value.
	PairKey string
	Line    int // 1-based
}

// Edit replaces Text[Start:End] of a piece with New.
type Edit struct {
	Start, End int
	New        string
}

// Masked is code after Mask, with what the generator of an intent reads from it.
type Masked struct {
	Code  string
	Edits int // edits applied
	// Name is the name of the function Mask was told about, as it reads after
	// masking; "" when there is no such function.
	Name string
	// Parameters are the parameter names of the function Mask was told about, as
	// they read after masking, in order (self and cls left out).
	Parameters []string
	// Returns are the expressions that function returns, as they read after
	// masking, in source order (its nested functions' returns left out).
	Returns []string
}

// ModuleQualName is the qualname of the pseudo-function that holds a file's
// top-level script requests, in every language.
const ModuleQualName = "<module>"

// ReasonTopLevel rejects that pseudo-function: script code is no function to
// complete.
const ReasonTopLevel = "top-level script request (no enclosing function)"
