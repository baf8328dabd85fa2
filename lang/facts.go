package lang

import (
	"encoding/json"
	"fmt"
)

// HTTP client libraries a call site may use (Call.Library): Python's, then
// JavaScript's and TypeScript's.
const (
	LibRequests   = "requests"
	LibHTTPX      = "httpx"
	LibAIOHTTP    = "aiohttp"
	LibURLLib     = "urllib"
	LibHTTPClient = "http.client"

	LibFetch      = "fetch"
	LibAxios      = "axios"
	LibNodeFetch  = "node-fetch"
	LibGot        = "got"
	LibSuperagent = "superagent"
	LibKy         = "ky"
	LibXHR        = "XMLHttpRequest"
	LibJQuery     = "jquery"
	LibNodeHTTP   = "node:https" // Node's http and https modules
	LibUndici     = "undici"
	LibRequest    = "request" // the deprecated npm request module (RapidAPI's snippets)
	LibUnirest    = "unirest"
	LibAngular    = "@angular/common/http" // Angular's HttpClient
)

// Parameter locations (CallParam.Location).
const (
	LocQuery  = "query"
	LocPath   = "path"
	LocJSON   = "json"
	LocData   = "data"
	LocHeader = "header"
)

// Facts are the static facts a language's extractor records about one extracted
// function, whatever its language: stored as JSON in store.Function.Facts and decoded
// with DecodeFacts by every later stage. Fields may be added, never renamed.
type Facts struct {
	// Language is the function's language (Python, JavaScript, TypeScript); "" in
	// facts stored before there was a second language, which means Python.
	Language Name `json:"language,omitempty"`
	// Dialect is the grammar the function's file was read with where the
	// language has several (JavaScript: js; TypeScript: ts, tsx); "" for Python.
	Dialect Dialect `json:"dialect,omitempty"`

	// Calls are the HTTP request call sites, in the order the function makes them:
	// the requests of a same-file helper it calls (InHelper set, URL resolved with
	// the function's arguments) stand where it calls the helper.
	Calls []Call `json:"calls"`

	Imports Imports `json:"imports"`

	// Comments are the comments inside the function (and directly above it), in
	// source order; Docstring is its docstring (Python) or the JSDoc block above it
	// (JavaScript), if any.
	Comments  []Text `json:"comments,omitempty"`
	Docstring *Text  `json:"docstring,omitempty"`
	// CommentsPlaceholder is set when every comment and the docstring are
	// placeholders ("TODO", "Define the target RapidAPI endpoint URL", …).
	CommentsPlaceholder bool `json:"comments_placeholder"`
	// CommentsStateGoal is set when the docstring or a leading comment (above the
	// definition, or opening the body on its own) says what the function is for;
	// inline comments among the statements never do.
	CommentsStateGoal bool `json:"comments_state_goal"`

	// EffectiveLOC counts the function's lines that are neither blank nor comments
	// nor docstring.
	EffectiveLOC int `json:"effective_loc"`
	// Signature is the declaration's head as written, normalized to one line
	// ("async def get(self, city: str) -> dict", "async function get(city)",
	// "const get = async (city) =>").
	Signature  string   `json:"signature"`
	Parameters []string `json:"parameters,omitempty"` // parameter names, in order
	Decorators []string `json:"decorators,omitempty"` // decorator expressions as written
	Parent     string   `json:"parent,omitempty"`     // enclosing function of a nested one

	StatusCheck       bool `json:"status_check"`       // status_code, raise_for_status, .ok, .status
	ExceptionHandling bool `json:"exception_handling"` // a try around a request call
	// SyntaxOK is false when the function's own nodes contain tree-sitter ERROR or
	// MISSING nodes; SyntaxErrors lists their lines.
	SyntaxOK     bool  `json:"syntax_ok"`
	SyntaxErrors []int `json:"syntax_errors,omitempty"`

	// Check is the judgement of the extracted code by the tool the evaluator checks
	// its language's syntax with (Python: the interpreter it runs; JavaScript and
	// TypeScript: esbuild's parser); nil when nothing judged it. Facts stored
	// before there was a second language hold it under "python".
	Check *SyntaxCheck `json:"check,omitempty"`

	// PulledIn is the module-level context the self-contained code includes besides
	// the function itself (imports excluded), in source order.
	PulledIn []PulledIn `json:"pulled_in,omitempty"`
	// Unresolved are free names the extraction could not define: names from star
	// imports, undefined globals, settings objects.
	Unresolved []string `json:"unresolved,omitempty"`

	// Encoding is "utf-8", or "latin-1" when the file was not valid UTF-8 and was
	// decoded as latin-1.
	Encoding string `json:"encoding"`

	Quality Quality `json:"quality"`
}

// Call is one HTTP request call site.
type Call struct {
	Line    int    `json:"line"` // 1-based line in the file
	Library string `json:"library"`
	// Callee is the called expression as written: "requests.get", "session.post",
	// "conn.request", "urllib.request.urlopen".
	Callee string `json:"callee"`
	// Method is the upper-case HTTP method, "" when it cannot be known statically.
	Method string `json:"method"`

	// URLExpr is the source text of the URL argument (for http.client, of the path
	// argument of conn.request).
	URLExpr string `json:"url_expr"`
	// URL is the URL resolved through literals, concatenation, f-strings, .format, %,
	// module and local constants, urljoin and base URL + path. Parts that cannot be
	// resolved appear as {name} placeholders (the variable's name or "param"); URL is
	// "" when nothing of it resolves.
	URL string `json:"url"`
	// URLResolved is true when URL is complete: no placeholder is left.
	URLResolved bool   `json:"url_resolved"`
	Scheme      string `json:"scheme,omitempty"`
	// Host is the URL's host, lower-cased; when the URL's host cannot be resolved,
	// the literal x-rapidapi-host header value; "" when unknown.
	Host  string `json:"host,omitempty"`
	Path  string `json:"path,omitempty"` // may hold {name} placeholders
	Query string `json:"query,omitempty"`

	// Headers maps header names as written to their literal values; a value that is
	// not a literal is "" here and its source text is in HeaderExprs.
	Headers     map[string]string `json:"headers,omitempty"`
	HeaderExprs map[string]string `json:"header_exprs,omitempty"`
	// HasRapidAPIHost / HasRapidAPIKey report an x-rapidapi-host / x-rapidapi-key
	// header, whatever its case; the values are set when literal.
	HasRapidAPIHost bool   `json:"has_rapidapi_host"`
	RapidAPIHost    string `json:"rapidapi_host,omitempty"`
	HasRapidAPIKey  bool   `json:"has_rapidapi_key"`
	RapidAPIKey     string `json:"rapidapi_key,omitempty"`

	// Params are the parameters the call sends, by location, with literal examples.
	Params []CallParam `json:"params,omitempty"`

	// PathFrom names the parameter of the function these facts are about that the
	// request's whole path (everything after its base URL) or whole URL comes from,
	// as in a generic wrapper: def get_json(url): requests.get(BASE + url), or
	// function getJson(path) { return fetch(BASE + path) }. It is "" when the code
	// writes some of the path itself, and for a request made through a helper to
	// which the function passes a concrete path.
	PathFrom string `json:"path_from,omitempty"`

	// StateFrom names the component state the request's whole URL is read from
	// (const [url, setUrl] = useState(…); fetch(url)), when the URL is nothing
	// else: a value the code changes as it runs, so the function names no endpoint
	// of its own. "" otherwise, and for languages without component state.
	StateFrom string `json:"state_from,omitempty"`

	// Callback names the anonymous function the request is made in, by what it is
	// passed to ("useEffect", "then", "app.get", "setTimeout", "(iife)"
	// for one called where it is written), when the function makes the request
	// inside one (JavaScript, TypeScript); "" otherwise.
	Callback string `json:"callback,omitempty"`

	// InHelper names the same-file helper that makes this request on the function's
	// behalf; "" when the function makes it itself.
	InHelper string `json:"in_helper,omitempty"`
	// Via is the chain of same-file functions the request passes through from the
	// function, outermost first: its last element is InHelper. Empty when the
	// function makes the request itself.
	Via []string `json:"via,omitempty"`
}

// Direct reports whether the function makes at least one request itself, not only
// through same-file helpers it calls.
func (f *Facts) Direct() bool {
	for _, c := range f.Calls {
		if c.InHelper == "" {
			return true
		}
	}
	return false
}

// CallParam is one parameter a request sends.
type CallParam struct {
	Name     string `json:"name"`
	Location string `json:"location"` // query | path | json | data | header
	Example  string `json:"example,omitempty"`
	// Literal is true when Example is the literal value written in the code.
	Literal bool `json:"literal,omitempty"`
}

// Imports are the modules the extracted code imports, top-level module names,
// sorted, split by whether the Python standard library provides them.
type Imports struct {
	Stdlib     []string `json:"stdlib"`
	ThirdParty []string `json:"third_party"`
	// Local are relative imports and modules of the same repository when they can
	// be told apart ("from .utils import x", "from src.config import y").
	Local []string `json:"local,omitempty"`
}

// Text is a comment or docstring with its lines (1-based, inclusive).
type Text struct {
	Text      string `json:"text"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	// Inline is set on a comment among the function's statements, which narrates a
	// step rather than speaking for the whole function.
	Inline bool `json:"inline,omitempty"`
}

// SyntaxCheck is what the evaluator's syntax checker said of the extracted code.
type SyntaxCheck struct {
	Tool    string `json:"tool,omitempty"` // "Python", "esbuild"
	Version string `json:"version"`        // "3.11.7"
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"` // "SyntaxError: f-string: expecting '}'"
	Line    int    `json:"line,omitempty"`  // in the extracted code
}

// PulledIn is one piece of module-level context copied into the extracted code.
type PulledIn struct {
	Name string `json:"name"`
	// Kind is constant | assignment | function | class, and for a method's class:
	// class (the header), method, class_attribute.
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// Quality is the quality score and every component it was computed from.
type Quality struct {
	Score float64 `json:"score"` // 0..100
	// Components are each component's contribution to Score (penalties negative):
	// syntax, api_call, response_handling, error_handling, length, repo_signals,
	// comments, docstring, database_call, indentation, missing_imports.
	Components map[string]float64 `json:"components"`
	Checks     Checks             `json:"checks"`
}

// Checks are the boolean completeness checks, named as in the published
// quality_metrics.completeness_checks.
type Checks struct {
	HasImports           bool     `json:"has_imports"`
	HasAPICall           bool     `json:"has_api_call"`
	HasResponseHandling  bool     `json:"has_response_handling"`
	HasErrorHandling     bool     `json:"has_error_handling"`
	IsSyntacticallyValid bool     `json:"is_syntactically_valid"`
	HasDatabaseCall      bool     `json:"has_database_call"`
	HasIndentationIssue  bool     `json:"has_indentation_issue"`
	HasComments          bool     `json:"has_comments"`
	HasDocstring         bool     `json:"has_docstring"`
	CommentLines         int      `json:"comment_lines"`
	MissingImports       []string `json:"missing_imports,omitempty"`
}

// DecodeFacts decodes the JSON stored in store.Function.Facts, facts stored before
// there was a second language included (their language is Python, their syntax
// check under "python").
func DecodeFacts(b []byte) (*Facts, error) {
	var f struct {
		Facts
		Legacy *SyntaxCheck `json:"python,omitempty"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("decode function facts: %w", err)
	}
	if f.Check == nil && f.Legacy != nil {
		f.Check = f.Legacy
		f.Check.Tool = "Python"
	}
	if f.Language == "" {
		f.Language = Python
	}
	return &f.Facts, nil
}
