package redact

import (
	"regexp"
	"slices"
	"strings"

	"sccg/leakcheck"
)

// OfflineInput is what the offline generator writes an intent from: ỹ's view of the
// function and its HTTP method.
type OfflineInput struct {
	Masked *Masked // the function's name, parameters and returns after masking
	Method string  // the HTTP method of its request
	// FailureValue is set when the function checks the response status or catches
	// request errors and then returns an empty value.
	FailureValue bool
	// Endpoint is the documented name of the endpoint the function calls ("Get
	// pokemon by name") and Category the API's category ("Weather"): the last
	// sources of what it fetches; "" when unknown.
	Endpoint, Category string
}

// offlineModel names the offline generator where a model name is recorded.
const offlineModel = "offline"

// OfflineIntent writes a sample's intent without a model, deterministically, from
// ỹ: the words of the function's name, its HTTP method, what its response handling
// returns and its argument names ("Get the current weather for a given city and
// return the JSON response."). When the name says nothing (main, __init__, a
// caller's name), what the function fetches comes from objectSources (the keys it
// reads from the response, the route's English words, the documented endpoint,
// the API's category), so the intent is not Contentless whenever one of them says
// something. Words that would give away part of g are left out, so the result
// always passes LeakCheck against g.
func OfflineIntent(in OfflineInput, g leakcheck.Truth) string {
	c := leakcheck.Compile(g)
	p := phrase(in, g)
	for range 12 {
		text := p.render()
		leaks := c.Check(text).Leaks
		if len(leaks) == 0 {
			return text
		}
		p.drop(leaks)
	}
	return "Call the service and return its response."
}

// intentPhrase is an intent in parts, so that a part that leaks can be dropped.
type intentPhrase struct {
	verb   string
	object []string // words
	// alts are the other sources of the object, in order, taken when what leaks
	// empties it
	alts    [][]string
	args    []string // each an argument, in words
	returns string   // "the JSON response"
	failure bool
	spans   []partSpan // of the last render
}

type partSpan struct {
	start, end int
	kind       byte // 'o' object word, 'a' argument, 'r' returns
	idx        int
}

// identifier placeholders masking writes into names
var identPlaceholder = regexp.MustCompile(`HOST|API_NAME|SEGMENT_\d+|PARAM_\d+|VALUE_\d+`)

// nameWords splits a (masked) identifier into lower-case words, leaving out the
// placeholders and numbers.
func nameWords(id string) []string {
	return leakcheck.Words(identPlaceholder.ReplaceAllString(id, " "))
}

// verbs maps a function name's first word to the verb of its intent.
var verbs = map[string]string{
	"get": "Get", "fetch": "Fetch", "retrieve": "Retrieve", "read": "Read", "load": "Load", "pull": "Fetch",
	"search": "Search for", "find": "Find", "lookup": "Look up", "look": "Look up", "query": "Query", "list": "List",
	"create": "Create", "add": "Add", "make": "Make", "post": "Post", "send": "Send", "submit": "Submit", "upload": "Upload",
	"update": "Update", "set": "Set", "delete": "Delete", "remove": "Remove", "check": "Check", "validate": "Validate",
	"verify": "Verify", "convert": "Convert", "translate": "Translate", "calculate": "Calculate", "compute": "Compute",
	"generate": "Generate", "download": "Download", "analyze": "Analyze", "analyse": "Analyse", "detect": "Detect",
	"predict": "Predict", "track": "Track", "scrape": "Scrape", "summarize": "Summarize", "compare": "Compare",
	"recommend": "Recommend", "geocode": "Geocode", "parse": "Parse", "extract": "Extract", "classify": "Classify",
	"identify": "Identify", "book": "Book", "subscribe": "Subscribe to", "shorten": "Shorten", "resolve": "Resolve",
	"define": "Define", "describe": "Describe", "collect": "Collect", "build": "Build", "score": "Score", "count": "Count",
	"broadcast": "Broadcast", "rank": "Rank", "rate": "Rate", "watch": "Watch", "monitor": "Monitor", "notify": "Notify",
	"estimate": "Estimate", "spellcheck": "Spell-check", "transcribe": "Transcribe", "encode": "Encode", "decode": "Decode",
}

// actsOnInput are the verbs whose object is the function's first input
// (translate the text, geocode the address), unlike those that fetch something.
var actsOnInput = map[string]bool{"Translate": true, "Define": true, "Geocode": true, "Validate": true, "Verify": true,
	"Convert": true, "Detect": true, "Analyze": true, "Analyse": true, "Summarize": true, "Score": true, "Classify": true,
	"Check": true, "Shorten": true, "Parse": true, "Extract": true, "Encode": true, "Decode": true, "Transcribe": true,
	"Spell-check": true, "Identify": true, "Describe": true, "Estimate": true, "Rate": true, "Rank": true, "Resolve": true,
	"Upload": true, "Broadcast": true}

// abbreviations spells out the short argument names developers write.
var abbreviations = map[string]string{"q": "query", "lang": "language", "num": "number", "lat": "latitude", "lon": "longitude",
	"lng": "longitude", "src": "source", "dst": "destination", "dest": "destination", "qty": "quantity", "msg": "message",
	"addr": "address", "img": "image", "loc": "location", "desc": "description", "frm": "source", "amt": "amount",
	"tz": "time zone", "dt": "date", "hl": "language", "gl": "country", "cc": "country code", "kw": "keyword", "to": "target"}

// noise are name words that say nothing about the goal.
var noise = map[string]bool{"api": true, "apis": true, "rapidapi": true, "rapid": true, "http": true, "https": true, "request": true,
	"requests": true, "call": true, "func": true, "fn": true, "helper": true, "main": true, "run": true, "do": true, "test": true,
	"async": true, "sync": true, "client": true, "wrapper": true, "endpoint": true, "impl": true, "handler": true, "util": true,
	"utils": true, "v": true}

// objectEnd are the name words after which come the inputs, which the arguments
// already name ("weather" of get_weather_by_city).
var objectEnd = map[string]bool{"by": true, "for": true, "with": true, "using": true, "via": true, "from": true}

// skipArg are argument names that are plumbing, not inputs of the goal.
var skipArg = map[string]bool{"self": true, "cls": true, "key": true, "api_key": true, "apikey": true, "token": true, "secret": true,
	"headers": true, "header": true, "session": true, "client": true, "timeout": true, "retries": true, "verbose": true,
	"debug": true, "proxy": true, "proxies": true, "url": true, "base_url": true, "host": true, "request": true, "req": true,
	"args": true, "kwargs": true, "params": true, "config": true, "cfg": true, "logger": true, "log": true, "ctx": true,
	"context": true, "rapidapi_key": true, "access_token": true, "auth": true, "callback": true, "db": true, "conn": true}

func phrase(in OfflineInput, g leakcheck.Truth) *intentPhrase {
	p := &intentPhrase{}
	m := in.Masked
	if m == nil {
		m = &Masked{}
	}
	words := nameWords(m.Name)
	fromName := false
	if len(words) > 0 {
		if v, ok := verbs[words[0]]; ok {
			p.verb, words, fromName = v, words[1:], true
			if v == "Look up" && len(words) > 0 && words[0] == "up" {
				words = words[1:]
			}
		}
	}
	for _, w := range words {
		if objectEnd[w] && len(p.object) > 0 {
			break
		}
		if !noise[w] && !objectEnd[w] && !methodEcho[w] && !emptyWord[w] {
			p.object = append(p.object, w)
		}
	}
	if !slices.ContainsFunc(p.object, func(w string) bool { return !dataWord[w] }) {
		p.object = nil // get_data, fetch_info: the name says nothing
	}
	if p.verb == "" {
		switch strings.ToUpper(in.Method) {
		case "POST":
			p.verb = "Submit"
		case "PUT", "PATCH":
			p.verb = "Update"
		case "DELETE":
			p.verb = "Delete"
		default:
			p.verb = "Get"
		}
	}
	p.returns = returnPhrase(m.Returns)
	p.alts = objectSources(m.Returns, m.Code, g.Route, in.Endpoint, in.Category)
	var args []string
	for _, a := range m.Parameters {
		if skipArg[strings.ToLower(a)] || strings.HasPrefix(a, "_") {
			continue
		}
		ws := nameWords(a)
		for i, w := range ws {
			if long, ok := abbreviations[w]; ok {
				ws[i] = long
			}
		}
		if len(ws) == 0 || (len(ws) == 1 && slices.Contains(p.object, ws[0])) {
			continue
		}
		args = append(args, strings.Join(ws, " "))
	}
	switch {
	case len(p.object) > 0:
	case p.verb == "Search for" && len(args) > 0:
		// "Search for a given keyword …"
	case fromName && actsOnInput[p.verb] && len(args) > 0:
		// the verb's object is its first input: translate(text, target)
		p.object, args = strings.Fields(args[0]), args[1:]
	default:
		p.nextObject()
		if p.returns == "the "+strings.Join(p.object, " ")+" from the response" {
			p.returns = "them"
		}
	}
	if len(args) > 3 {
		args = args[:3]
	}
	p.args = args
	p.failure = in.FailureValue
	return p
}

// returnPhrase says what the return expressions give back.
func returnPhrase(rets []string) string {
	for _, r := range rets {
		switch {
		case strings.Contains(r, ".json()") || strings.HasPrefix(r, "json.loads("):
			if k := subscriptKey(r); k != "" {
				if genericKey[k] {
					return "the " + k + " field"
				}
				return "the " + k + " from the response"
			}
			return "the JSON response"
		case strings.HasSuffix(r, ".text"):
			return "the response text"
		case strings.HasSuffix(r, ".content"):
			return "the raw response body"
		case strings.HasSuffix(r, ".status_code"):
			return "the status code"
		}
	}
	for _, r := range rets {
		if pyIdentRE.MatchString(r) {
			switch r {
			case "None", "True", "False":
				continue
			case "r", "res", "resp", "response":
				return "the response"
			}
			if ws := nameWords(r); len(ws) > 0 && !slices.ContainsFunc(ws, func(w string) bool { return len(w) < 3 || vagueVar[w] || !leakcheck.IsWord(w) }) {
				return "the " + strings.Join(ws, " ")
			}
			return "the result"
		}
		if strings.HasPrefix(r, "[") || strings.HasPrefix(r, "{") && r != "{}" {
			return "the fields it needs"
		}
	}
	return ""
}

// vagueVar are variable names that say nothing of what they hold.
var vagueVar = map[string]bool{"out": true, "ret": true, "res": true, "tmp": true, "val": true, "obj": true, "all": true, "any": true,
	"new": true, "old": true, "ans": true, "var": true}

// genericKey are response keys that name no content: "the data field of the response".
var genericKey = map[string]bool{"response": true, "data": true, "result": true, "results": true, "body": true, "payload": true,
	"content": true, "output": true, "value": true, "items": true}

// objectSources are what a function whose name says nothing fetches, best first:
// the key it returns from the response, the keys its code reads (print(d["name"],
// d["weight"])), the English words of its route, the words of the documented
// endpoint's name, the API's category. Placeholders, versions, verbs and words
// that fit any response are left out; a source with nothing left is skipped.
func objectSources(rets []string, code, route, endpoint, category string) [][]string {
	var out [][]string
	add := func(ws []string) {
		var keep []string
		for _, w := range ws {
			if _, verb := verbs[w]; verb || len(w) < 3 || genericVerb[w] || emptyWord[w] || dataWord[w] || methodEcho[w] || noise[w] || !leakcheck.IsWord(w) {
				continue
			}
			if !slices.Contains(keep, w) && !slices.Contains(keep, w+"s") && !slices.Contains(keep, strings.TrimSuffix(w, "s")) {
				keep = append(keep, w)
			}
		}
		if len(keep) > 3 {
			keep = keep[len(keep)-3:]
		}
		if len(keep) > 0 && !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, keep) }) {
			out = append(out, keep)
		}
	}
	for _, r := range rets {
		if k := subscriptKey(r); k != "" {
			add(strings.Fields(k))
			break
		}
	}
	var read []string
	fromResponse := responseVars(code)
	for _, m := range readKeyRE.FindAllStringSubmatch(code, -1) {
		if m[1] == "" || fromResponse[m[1]] {
			read = append(read, nameWords(m[2])...)
		}
	}
	add(read)
	var routeWords []string
	for _, seg := range strings.Split(route, "/") {
		if seg == "" || strings.Contains(seg, "{") {
			continue
		}
		routeWords = append(routeWords, nameWords(seg)...)
	}
	add(routeWords)
	add(nameWords(endpoint))
	add(nameWords(category))
	return out
}

// readKeyRE finds a literal key read from a value (d["name"], d.get("name"),
// r.json()["name"]), with the value's name ("" for a call's result).
var readKeyRE = regexp.MustCompile(`(?:([A-Za-z_][A-Za-z0-9_]*)|\))(?:\[\s*|\.get\(\s*)["']([A-Za-z][A-Za-z0-9_ -]*)["']`)

var (
	jsonAssignRE = regexp.MustCompile(`(?m)^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:await\s+)?[^\n]*(?:\.json\(\)|json\.loads\()`)
	forInRE      = regexp.MustCompile(`for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(?:enumerate\()?([A-Za-z_][A-Za-z0-9_]*)`)
)

// responseVars are the names that hold a decoded response in code: assigned from
// .json() or json.loads(…), or looping over one. Keys read from anything else
// (options, settings, the request's own dicts) say nothing of what is fetched.
func responseVars(code string) map[string]bool {
	vars := map[string]bool{}
	for _, m := range jsonAssignRE.FindAllStringSubmatch(code, -1) {
		vars[m[1]] = true
	}
	for _, m := range forInRE.FindAllStringSubmatch(code, -1) {
		if vars[m[2]] {
			vars[m[1]] = true
		}
	}
	return vars
}

var (
	pyIdentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	keyRE     = regexp.MustCompile(`(?:\[\s*|\.get\(\s*)["']([A-Za-z][A-Za-z0-9_ -]*)["']`)
)

// subscriptKey is the first literal key read from the response ("results" of
// r.json()["results"]), in words.
func subscriptKey(r string) string {
	m := keyRE.FindStringSubmatch(r)
	if m == nil {
		return ""
	}
	return strings.Join(nameWords(m[1]), " ")
}

// render writes the intent and remembers where each part is.
func (p *intentPhrase) render() string {
	var b strings.Builder
	p.spans = p.spans[:0]
	b.WriteString(p.verb)
	obj := p.object
	bare := p.verb == "Search for" && len(obj) == 0 && len(p.args) > 0
	if len(obj) == 0 && !bare {
		obj = []string{"data"}
	}
	switch {
	case bare:
	case strings.HasSuffix(p.verb, " for") || p.verb == "List" || p.verb == "Find":
		b.WriteString(" ")
	default:
		b.WriteString(" the ")
	}
	for i, w := range obj {
		if i > 0 {
			b.WriteString(" ")
		}
		s := b.Len()
		b.WriteString(w)
		if len(p.object) > 0 {
			p.spans = append(p.spans, partSpan{s, b.Len(), 'o', i})
		}
	}
	for i, a := range p.args {
		switch {
		case i == 0 && bare && plural(a):
			b.WriteString(" the given ")
		case i == 0 && bare:
			b.WriteString(" a given ")
		case i == 0 && plural(a):
			b.WriteString(" for the given ")
		case i == 0:
			b.WriteString(" for a given ")
		case i == len(p.args)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		s := b.Len()
		b.WriteString(a)
		p.spans = append(p.spans, partSpan{s, b.Len(), 'a', i})
	}
	if p.returns != "" {
		b.WriteString(" and return ")
		s := b.Len()
		b.WriteString(p.returns)
		p.spans = append(p.spans, partSpan{s, b.Len(), 'r', 0})
	}
	b.WriteString(".")
	if p.failure {
		b.WriteString(" Return nothing when the request fails.")
	}
	return b.String()
}

// drop removes the parts that the leaks fall in; a leak in no part (the verb and
// fixed words never leak) drops everything but the verb.
func (p *intentPhrase) drop(leaks []leakcheck.Leak) {
	objs, args := map[int]bool{}, map[int]bool{}
	hit := false
	for _, l := range leaks {
		for _, s := range p.spans {
			if l.Start < s.end && s.start < l.End {
				hit = true
				switch s.kind {
				case 'o':
					objs[s.idx] = true
				case 'a':
					args[s.idx] = true
				case 'r':
					p.returns = "the response"
				}
			}
		}
	}
	if !hit {
		p.object, p.args, p.returns = nil, nil, "the response"
		p.nextObject()
		return
	}
	var o []string
	for i, w := range p.object {
		if !objs[i] {
			o = append(o, w)
		}
	}
	var a []string
	for i, w := range p.args {
		if !args[i] {
			a = append(a, w)
		}
	}
	p.object, p.args = o, a
	if len(p.object) == 0 {
		p.nextObject()
	}
}

// nextObject takes the next source of the object, once what leaked emptied it.
func (p *intentPhrase) nextObject() {
	if len(p.alts) > 0 {
		p.object, p.alts = p.alts[0], p.alts[1:]
	}
}

// plural reports whether a phrase's last word is a plural noun ("cities", "symbols").
func plural(phrase string) bool {
	ws := strings.Fields(phrase)
	if len(ws) == 0 {
		return false
	}
	w := ws[len(ws)-1]
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}
