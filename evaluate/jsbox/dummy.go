package jsbox

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The dummy-argument modes, tried in turn until a call sends a request: the
// parameters' defaults kept (dummies for the rest), a dummy for every parameter,
// a permissive stub for every parameter.
const (
	modeDefaults = iota
	modeAll
	modeStubs
	numModes
)

// dummyArgs describes the arguments of a call in one mode, as JSON the harness
// builds them from (see dummy in harness.js). A value is chosen by the
// parameter's use in the body (kind), else by its name, as the Python harness
// chooses: a URL for url, 40.7 for lat, a key for token, 1 for limit, ...
func dummyArgs(ps []param, mode int) string {
	out := make([]map[string]any, 0, len(ps))
	for _, p := range ps {
		if p.Rest {
			break
		}
		switch {
		case mode == modeStubs:
			out = append(out, map[string]any{"x": orName(p.Name)})
		case mode == modeDefaults && p.Def:
			out = append(out, map[string]any{"u": 1})
		default:
			out = append(out, dummyFor(p, mode))
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func orName(n string) string {
	if n == "" {
		return "arg"
	}
	return n
}

// Names that choose a dummy, each set matched whole (as ^(a|b|…)$ did).
var (
	countish = newNameSet("month", "day", "days", "hours", "limit", "count", "page", "size", "num", "n", "max", "top", "offset", "amount", "quantity", "age", "k", "perpage", "maxresults", "radius", "retries", "timeout", "zoom", "level", "pagesize", "index", "idx", "i")
	objish   = newNameSet("headers", "params", "data", "payload", "body", "json", "options", "opts", "config", "settings", "cfg", "conf", "context", "ctx", "info", "meta", "metadata", "query", "queryparams", "filters", "extra", "args", "init")
	stubbish = newNameSet("req", "request", "res", "response", "event", "message", "msg", "client", "app", "db", "conn", "logger", "log", "bot", "interaction")
	callish  = newNameSet("callback", "cb", "done", "next", "handler", "fn", "resolve", "reject", "onsuccess", "onerror", "success", "error")
	placeish = newNameSet("city", "location", "place", "address", "region", "state", "q", "query", "term", "search", "keyword", "keywords")
	dateish  = newNameSet("start", "end", "since", "until", "begin", "from", "to")
	// the name as the sets read it: lower case, no underscores or hyphens
	nameFolds = strings.NewReplacer("_", "", "-", "")
	notPlural = []string{"address", "status", "news", "class", "alias", "bus", "is", "has", "ss"}
)

// dummyFor is the description of one parameter's dummy.
func dummyFor(p param, mode int) map[string]any {
	if len(p.Keys) > 0 {
		k := map[string]any{}
		for _, key := range p.Keys {
			if mode == modeDefaults && slices.Contains(p.Opt, key) {
				continue
			}
			k[key] = dummyFor(param{Name: key}, mode)
		}
		return map[string]any{"k": k}
	}
	n := strings.ToLower(nameFolds.Replace(p.Name))
	if n == "http" || n == "httpclient" || n == "httpservice" {
		// an Angular service's injected client: constructor(private http: HttpClient)
		return map[string]any{"h": 1}
	}
	switch p.Kind {
	case "url":
		return str(urlHolding(p.Cut))
	case "span":
		return str(ownerName)
	case "num":
		switch {
		case strings.Contains(n, "year"):
			return num(2024)
		case strings.HasPrefix(n, "lat"):
			return num(40.7)
		case strings.HasPrefix(n, "lon") || strings.HasPrefix(n, "lng"):
			return num(-74.0)
		}
		return num(1)
	case "arr":
		return map[string]any{"a": 1}
	case "fn":
		return map[string]any{"f": 1}
	case "obj":
		if len(p.Fields) > 0 {
			return map[string]any{"x": orName(p.Name), "p": p.Fields}
		}
		return map[string]any{"x": orName(p.Name)}
	}
	switch {
	case strings.Contains(n, "url") || strings.Contains(n, "endpoint"):
		return str("https://example.com/test")
	case n == "lat" || n == "latitude":
		return num(40.7)
	case n == "lon" || n == "lng" || n == "long" || n == "longitude":
		return num(-74.0)
	case containsAny(n, []string{"key", "token", "secret", "password", "auth"}):
		return str("test-key")
	case strings.Contains(n, "email"):
		return str("test@example.com")
	case strings.Contains(n, "date") || dateish[n]:
		return str("2024-01-01")
	case strings.Contains(n, "year"):
		return num(2024)
	case countish[n] || strings.HasPrefix(n, "num") || strings.HasPrefix(n, "max"):
		return num(1)
	case objish[n]:
		return map[string]any{"o": 1}
	case stubbish[n]:
		if len(p.Fields) > 0 {
			// a request handler's req.method, a message's type: what the code expects
			return map[string]any{"x": p.Name, "p": p.Fields}
		}
		return map[string]any{"x": p.Name}
	case callish[n]:
		return map[string]any{"f": 1}
	case strings.HasSuffix(n, "list") || strings.HasSuffix(n, "ids"):
		return map[string]any{"a": 1}
	case strings.HasSuffix(n, "s") && len(n) > 3 && !hasAnySuffix(n, notPlural):
		return map[string]any{"a": 1}
	case strings.Contains(n, "lang") || strings.Contains(n, "locale"):
		return str("en")
	case strings.Contains(n, "country"):
		return str("US")
	case placeish[n]:
		return str("London")
	case strings.HasSuffix(n, "id"):
		return str("1")
	}
	return str("test")
}

// ownerName is the dummy of a parameter the code puts where a repository's owner
// and name go: two segments, as the real value is.
const ownerName = "octocat/hello-world"

// urlHolding is a URL a parameter the code cuts at, or searches for, cut holds: a
// repository's page when cut names a host (split('github.com/')), a page with an
// id after cut when it is a path (split('/playlist/')), a page with a path when
// the code parses it whole (new URL(link)).
func urlHolding(cut string) string {
	switch {
	case strings.Contains(cut, "://"):
		return strings.TrimRight(cut, "/") + "/" + ownerName
	case cut != "" && strings.Contains(strings.SplitN(cut, "/", 2)[0], "."):
		return "https://" + strings.TrimRight(cut, "/") + "/" + ownerName
	case cut != "":
		return "https://example.com/" + strings.Trim(cut, "/") + "/4uLU6hMCjMI75M1A2tKUQC"
	}
	return "https://example.com/" + ownerName
}

type nameSet map[string]bool

func newNameSet(names ...string) nameSet {
	m := nameSet{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

func num(v float64) map[string]any { return map[string]any{"n": v} }
func str(v string) map[string]any  { return map[string]any{"s": v} }

func hasAnySuffix(s string, sufs []string) bool {
	for _, x := range sufs {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// Selector parts fieldValue reads: an attribute ([name="q"], [type=number]), an id
// (#city), a class (.search-input).
var (
	selectorAttr = regexp.MustCompile(`\[\s*([\w-]+)\s*[~|^$*]?=\s*["']?([^"'\]]*)["']?\s*\]`)
	selectorID   = regexp.MustCompile(`#([\w-]+)`)
	selectorWord = regexp.MustCompile(`[\w-]+`)
	// fieldAffixes are the words a field's name carries besides what it holds
	// (cityInput, txtUsername, search-field).
	fieldAffixes = regexp.MustCompile(`(?i)^(input|txt|inp|field|form)[-_]?|[-_]?(input|field|box|txt|text|value|val|inp|el|elem|element)$`)
)

// fieldValue is what a page's field found by key (an id, a name or a selector)
// holds, as a user would have typed it: by the input's type where the selector
// gives one, else by its name as a dummy argument of that name would be ("London"
// for city, "1" for limit, "2024-01-01" for a date), "test" otherwise. It is never
// empty, so code that reads a form builds the request a user's click would.
func fieldValue(key string) string {
	var name, typ string
	for _, m := range selectorAttr.FindAllStringSubmatch(key, -1) {
		switch strings.ToLower(m[1]) {
		case "type":
			typ = strings.ToLower(m[2])
		case "name", "id", "placeholder", "aria-label":
			if name == "" {
				name = m[2]
			}
		}
	}
	if name == "" {
		if m := selectorID.FindStringSubmatch(key); m != nil {
			name = m[1]
		} else if ws := selectorWord.FindAllString(selectorAttr.ReplaceAllString(key, ""), -1); len(ws) > 0 {
			name = ws[len(ws)-1]
		}
	}
	switch typ {
	case "number", "range":
		return "1"
	case "date":
		return "2024-01-01"
	case "email":
		return "test@example.com"
	case "url":
		return "https://example.com/test"
	case "tel":
		return "5551234567"
	}
	if trimmed := fieldAffixes.ReplaceAllString(name, ""); trimmed != "" {
		name = trimmed
	}
	d := dummyFor(param{Name: name}, modeAll)
	switch {
	case d["s"] != nil:
		return d["s"].(string)
	case d["n"] != nil:
		return strconv.FormatFloat(d["n"].(float64), 'f', -1, 64)
	}
	return "test"
}
