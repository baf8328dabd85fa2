package python

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"sccg/lang"
)

// reqSite is one HTTP request call found in the tree, before evaluation.
type reqSite struct {
	call     *node
	fn       *fnInfo // enclosing function, nil at module level
	lib      string
	callee   string
	method   string            // fixed by the callee (requests.get → GET), else ""
	methodAt int               // positional index of a method argument, -1 if none
	urlAt    int               // positional index of the URL argument
	client   *node             // constructor call of the session/client/connection, if known
	keys     map[string]string // loop keys under which the client was stored (see scope.loopKey)
	receiver string            // text of the receiver (s, self.session) for session headers
}

var httpVerbs = map[string]bool{"get": true, "post": true, "put": true, "delete": true, "patch": true, "head": true, "options": true}

// clientCtors maps constructor paths to the library whose client they build.
var clientCtors = map[string]string{
	"requests.Session": lang.LibRequests, "requests.session": lang.LibRequests, "requests.sessions.Session": lang.LibRequests,
	"requests_cache.CachedSession": lang.LibRequests,
	"cloudscraper.create_scraper":  lang.LibRequests, "cloudscraper.CloudScraper": lang.LibRequests,
	"httpx.Client": lang.LibHTTPX, "httpx.AsyncClient": lang.LibHTTPX,
	"aiohttp.ClientSession": lang.LibAIOHTTP, "aiohttp.client.ClientSession": lang.LibAIOHTTP,
	"http.client.HTTPSConnection": lang.LibHTTPClient, "http.client.HTTPConnection": lang.LibHTTPClient,
	"httplib.HTTPSConnection": lang.LibHTTPClient, "httplib.HTTPConnection": lang.LibHTTPClient,
}

var clientName = regexp.MustCompile(`(?i)(session|client|scraper|^http$|^sess$|^conn$|^api$)`)

// splitArgs returns a call's positional and keyword arguments.
func splitArgs(call *node, src []byte) ([]*node, map[string]*node) {
	var pos []*node
	kw := map[string]*node{}
	args := call.Child("arguments")
	if args == nil {
		return nil, kw
	}
	for _, a := range args.NamedKids() {
		switch a.Type {
		case "keyword_argument":
			if nm := a.Child("name"); nm != nil {
				kw[nm.Text(src)] = a.Child("value")
			}
		case "comment", "list_splat", "dictionary_splat":
		default:
			pos = append(pos, a)
		}
	}
	return pos, kw
}

// requestSite recognises call as an HTTP request, or returns nil.
func (m *module) requestSite(call *node, f *fnInfo) *reqSite {
	fn := call.Child("function")
	if fn == nil {
		return nil
	}
	d := m.dotted(fn, f)
	last := d
	if i := strings.LastIndex(d, "."); i >= 0 {
		last = d[i+1:]
	}
	if fn.Type == "attribute" {
		last = fn.Child("attribute").Text(m.src)
	}
	rs := &reqSite{call: call, fn: f, callee: strings.Join(strings.Fields(fn.Text(m.src)), ""), methodAt: -1}
	prefix := strings.TrimSuffix(d, "."+last)
	switch {
	case (prefix == "requests" || prefix == "requests.api") && (httpVerbs[last] || last == "request"):
		rs.lib = lang.LibRequests
	case prefix == "httpx" && (httpVerbs[last] || last == "request" || last == "stream"):
		rs.lib = lang.LibHTTPX
	case d == "aiohttp.request":
		rs.lib = lang.LibAIOHTTP
	case d == "urllib.request.urlopen" || d == "urllib2.urlopen" || d == "urllib.urlopen" || d == "six.moves.urllib.request.urlopen":
		rs.lib = lang.LibURLLib
		rs.method = ""
		rs.urlAt = 0
		return rs
	}
	if rs.lib == "" && fn.Type == "attribute" && (httpVerbs[last] || last == "request" || last == "stream") {
		obj := fn.Child("object")
		lib, ctor := m.clientOf(obj, f, 0)
		if lib == "" && clientName.MatchString(lastName(obj, m.src)) && last != "stream" {
			lib = m.guessLib(f)
			if lib == lang.LibHTTPClient && last != "request" {
				lib = ""
			}
		}
		if lib == "" {
			return nil
		}
		rs.lib, rs.client, rs.receiver = lib, ctor, strings.Join(strings.Fields(obj.Text(m.src)), "")
		if obj.Type == "subscript" && ctor != nil {
			rs.keys = m.clientKeys(obj, ctor, f)
		}
		if lib == lang.LibHTTPClient {
			if last != "request" {
				return nil
			}
			rs.methodAt, rs.urlAt = 0, 1
			return rs
		}
	}
	if rs.lib == "" {
		return nil
	}
	if last == "request" || last == "stream" {
		rs.methodAt, rs.urlAt = 0, 1
	} else {
		rs.method = strings.ToUpper(last)
		rs.urlAt = 0
	}
	return rs
}

// lastName is the last identifier of an identifier/attribute chain.
func lastName(n *node, src []byte) string {
	switch n.Type {
	case "identifier":
		return n.Text(src)
	case "attribute":
		return n.Child("attribute").Text(src)
	}
	return ""
}

// guessLib picks the client library for a receiver that looks like a session whose
// construction is not visible (a parameter, a global set elsewhere).
func (m *module) guessLib(f *fnInfo) string {
	async := f != nil && f.async
	switch {
	case async && m.libs[lang.LibAIOHTTP]:
		return lang.LibAIOHTTP
	case async && m.libs[lang.LibHTTPX]:
		return lang.LibHTTPX
	case m.libs[lang.LibRequests]:
		return lang.LibRequests
	case m.libs[lang.LibHTTPX]:
		return lang.LibHTTPX
	case m.libs[lang.LibAIOHTTP]:
		return lang.LibAIOHTTP
	case m.libs[lang.LibHTTPClient]:
		return lang.LibHTTPClient
	}
	return ""
}

// clientOf reports whether expression n is a session/client/connection object and
// returns its library and the constructor call when visible.
func (m *module) clientOf(n *node, f *fnInfo, depth int) (string, *node) {
	if n == nil || depth > 6 {
		return "", nil
	}
	switch n.Type {
	case "call":
		d := m.dotted(n.Child("function"), f)
		if lib, ok := clientCtors[d]; ok {
			return lib, n
		}
		// a same-file factory: def _client(): return httpx.AsyncClient(...)
		if fn := n.Child("function"); fn != nil && fn.Type == "identifier" {
			if g, ok := m.topFuncs[fn.Text(m.src)]; ok {
				lib, ctor := "", (*node)(nil)
				g.def.Child("body").Walk(func(r *node) bool {
					if lib != "" || r.Type == "function_definition" || r.Type == "class_definition" {
						return false
					}
					if r.Type == "return_statement" {
						if k := r.NamedKids(); len(k) == 1 {
							lib, ctor = m.clientOf(k[0], g, depth+1)
						}
						return false
					}
					return true
				})
				if lib != "" {
					return lib, ctor
				}
			}
		}
	case "await", "parenthesized_expression":
		if k := n.NamedKids(); len(k) == 1 {
			return m.clientOf(k[0], f, depth+1)
		}
	case "identifier":
		name := n.Text(m.src)
		for g := f; g != nil; g = g.parent {
			if ls := g.locals[name]; len(ls) > 0 {
				for i := len(ls) - 1; i >= 0; i-- {
					if lib, c := m.clientOf(ls[i].value, g, depth+1); lib != "" {
						return lib, c
					}
				}
				return "", nil
			}
			for _, p := range g.params {
				if p.name == name && p.ann != nil {
					ann := strings.Trim(strings.Join(strings.Fields(p.ann.Text(m.src)), ""), `"'`)
					if k := p.ann.NamedKids(); len(k) == 1 {
						ann = m.dotted(k[0], g)
					}
					if lib, ok := clientCtors[ann]; ok {
						return lib, nil
					}
				}
			}
		}
		if v := m.moduleValue(name); v != nil {
			return m.clientOf(v, nil, depth+1)
		}
	case "subscript":
		// clients["weather"] where clients[k] = httpx.AsyncClient(...) somewhere
		if a := m.storedClient(n); a != nil {
			return m.clientOf(a.Child("right"), m.funcAt(a), depth+1)
		}
	case "attribute":
		obj := n.Child("object")
		if obj.Type == "identifier" && (obj.Text(m.src) == "self" || obj.Text(m.src) == "cls") {
			if ci := enclosingClass(f); ci != nil {
				for _, v := range ci.attrs[n.Child("attribute").Text(m.src)] {
					if lib, c := m.clientOf(v, m.funcAt(v), depth+1); lib != "" {
						return lib, c
					}
				}
			}
		}
	}
	return "", nil
}

// storedClient finds the assignment `name[key] = <client>` behind a subscript
// `name[...]` whose value is a global container.
func (m *module) storedClient(n *node) *node {
	base := n.Child("value")
	if base == nil || base.Type != "identifier" {
		return nil
	}
	name := base.Text(m.src)
	if a, ok := m.stored[name]; ok {
		return a
	}
	var found *node
	defer func() { m.stored[name] = found }()
	m.stored[name] = nil // a client stored under its own name cannot recurse
	m.root.Walk(func(a *node) bool {
		if found != nil {
			return false
		}
		if a.Type == "assignment" {
			l := a.Child("left")
			if l != nil && l.Type == "subscript" && l.Child("value").Type == "identifier" && l.Child("value").Text(m.src) == name && a.Child("right") != nil {
				if lib, _ := m.clientOf(a.Child("right"), m.funcAt(a), 5); lib != "" {
					found = a
				}
			}
		}
		return true
	})
	return found
}

// clientKeys binds the loop variable used as the container key when the client
// was stored to the key the call site reads it back with.
func (m *module) clientKeys(sub, ctor *node, f *fnInfo) map[string]string {
	a := m.storedClient(sub)
	if a == nil {
		return nil
	}
	k := a.Child("left").Child("subscript")
	if k == nil || k.Type != "identifier" {
		return nil
	}
	want := (&scope{m: m, fn: f, at: sub.Start}).str(sub.Child("subscript"))
	if !want.complete {
		return nil
	}
	return map[string]string{k.Text(m.src): want.s}
}

// clientScope is the scope a client's constructor arguments are evaluated in.
func (sc *scope) clientScope(rs *reqSite) *scope {
	f := sc.m.funcAt(rs.client)
	if f == sc.fn && rs.keys == nil {
		return sc
	}
	return &scope{m: sc.m, fn: f, at: rs.client.Start, depth: sc.depth + 1, loopKey: rs.keys}
}

// kv is one key of a statically visible dict and its value expression.
type kv struct {
	key     string
	keyNode *node
	val     *node
	sc      *scope
}

// dict returns the entries of a dict expression: a literal, dict(...), {**a, …}, or
// a name bound to one (with later d[k] = v and d.update(...) in the same function).
func (sc *scope) dict(n *node) []kv {
	if n == nil || sc.depth > maxEvalDepth {
		return nil
	}
	src := sc.m.src
	switch n.Type {
	case "dictionary":
		var out []kv
		for _, c := range n.NamedKids() {
			switch c.Type {
			case "pair":
				k := sc.str(c.Child("key"))
				if k.complete {
					out = append(out, kv{key: k.s, keyNode: c.Child("key"), val: c.Child("value"), sc: sc})
				}
			case "dictionary_splat":
				if k := c.NamedKids(); len(k) == 1 {
					out = append(out, sc.with(sc.at).dict(k[0])...)
				}
			}
		}
		return out
	case "parenthesized_expression":
		if k := n.NamedKids(); len(k) == 1 {
			return sc.dict(k[0])
		}
	case "call":
		d := sc.m.dotted(n.Child("function"), sc.fn)
		pos, kw := splitArgs(n, src)
		switch d {
		case "dict":
			var out []kv
			if len(pos) == 1 {
				out = sc.with(sc.at).dict(pos[0])
			}
			byPosition := func(a, b string) int { return cmp.Compare(kw[a].Start, kw[b].Start) }
			for _, k := range slices.SortedFunc(maps.Keys(kw), byPosition) {
				out = append(out, kv{key: k, val: kw[k], sc: sc})
			}
			return out
		case "json.dumps", "dumps":
			if len(pos) >= 1 {
				return sc.with(sc.at).dict(pos[0])
			}
		}
		if fn := n.Child("function"); fn != nil && fn.Type == "attribute" && fn.Child("attribute").Text(src) == "copy" {
			return sc.with(sc.at).dict(fn.Child("object"))
		}
	case "identifier":
		name := n.Text(src)
		v, vs, _ := sc.lookup(name)
		var out []kv
		if v != nil {
			out = vs.dict(v)
		}
		if sc.fn != nil {
			out = append(out, sc.dictMutations(sc.fn, name, sc.at)...)
		}
		return out
	case "attribute":
		obj := n.Child("object")
		if obj.Type == "identifier" && (obj.Text(src) == "self" || obj.Text(src) == "cls") && sc.fn != nil {
			if ci := enclosingClass(sc.fn); ci != nil {
				for _, v := range ci.attrs[n.Child("attribute").Text(src)] {
					f := sc.m.funcAt(v)
					if out := (&scope{m: sc.m, fn: f, at: v.Start, depth: sc.depth + 1, defaults: true}).dict(v); len(out) > 0 {
						return out
					}
				}
			}
		}
	}
	return nil
}

// dictMutations finds `name[k] = v` and `name.update({...})` in f before at.
func (sc *scope) dictMutations(f *fnInfo, name string, at uint32) []kv {
	src := sc.m.src
	var out []kv
	body := f.def.Child("body")
	body.Walk(func(n *node) bool {
		if n.Start >= at {
			return false
		}
		switch n.Type {
		case "function_definition", "class_definition":
			return false
		case "assignment":
			l := n.Child("left")
			if l != nil && l.Type == "subscript" && l.Child("value").Type == "identifier" && l.Child("value").Text(src) == name {
				if k := sc.str(l.Child("subscript")); k.complete {
					out = append(out, kv{key: k.s, val: n.Child("right"), sc: sc.with(n.Start)})
				}
			}
		case "call":
			fn := n.Child("function")
			if fn != nil && fn.Type == "attribute" && fn.Child("attribute").Text(src) == "update" &&
				fn.Child("object").Type == "identifier" && fn.Child("object").Text(src) == name {
				pos, kw := splitArgs(n, src)
				if len(pos) == 1 && pos[0].Type != "identifier" {
					out = append(out, sc.with(n.Start).dict(pos[0])...)
				}
				for k, v := range kw {
					out = append(out, kv{key: k, val: v, sc: sc})
				}
			}
		}
		return true
	})
	return out
}

// sessionHeaders finds headers set on a session object: its constructor's headers=,
// and X.headers.update({...}) / X.headers[k] = v on the same receiver text in the
// function or, for self.X, in any method of the class.
func (sc *scope) sessionHeaders(rs *reqSite) []kv {
	src := sc.m.src
	var out []kv
	if rs.client != nil {
		_, kw := splitArgs(rs.client, src)
		if h := kw["headers"]; h != nil {
			out = append(out, sc.clientScope(rs).dict(h)...)
		}
	}
	if rs.receiver == "" {
		return out
	}
	var scan []*fnInfo
	memo := ""
	if strings.HasPrefix(rs.receiver, "self.") || strings.HasPrefix(rs.receiver, "cls.") {
		ci := enclosingClass(rs.fn)
		if ci == nil {
			return out
		}
		// the whole class is scanned once per receiver, not once per call site
		memo = ci.name + "\x00" + fmt.Sprint(ci.def.Start) + "\x00" + rs.receiver
		if kvs, ok := sc.m.sessHeaders[memo]; ok {
			return append(out, kvs...)
		}
		for _, f := range sc.m.funcs {
			if f.class == ci {
				scan = append(scan, f)
			}
		}
	} else if rs.fn != nil {
		scan = []*fnInfo{rs.fn}
	}
	var found []kv
	for _, f := range scan {
		fsc := &scope{m: sc.m, fn: f, at: f.def.End, depth: 1}
		f.def.Walk(func(n *node) bool {
			switch n.Type {
			case "call":
				fn := n.Child("function")
				if fn != nil && fn.Type == "attribute" && fn.Child("attribute").Text(src) == "update" {
					o := strings.Join(strings.Fields(fn.Child("object").Text(src)), "")
					if o == rs.receiver+".headers" {
						pos, _ := splitArgs(n, src)
						if len(pos) == 1 {
							found = append(found, fsc.with(n.Start).dict(pos[0])...)
						}
					}
				}
			case "assignment":
				l := n.Child("left")
				if l != nil && l.Type == "subscript" {
					o := strings.Join(strings.Fields(l.Child("value").Text(src)), "")
					if o == rs.receiver+".headers" {
						if k := fsc.str(l.Child("subscript")); k.complete {
							found = append(found, kv{key: k.s, val: n.Child("right"), sc: fsc.with(n.Start)})
						}
					}
				}
			}
			return true
		})
	}
	if memo != "" {
		sc.m.sessHeaders[memo] = found
	}
	return append(out, found...)
}

// resolveCall follows n (a call, or a name bound to one) to a call whose callee's
// last name is want, e.g. the urllib Request(...) behind `urlopen(req)`.
func (sc *scope) resolveCall(n *node, want string) (*node, *scope) {
	n, sc = sc.follow(n)
	if n == nil || n.Type != "call" {
		return nil, nil
	}
	d := sc.m.dotted(n.Child("function"), sc.fn)
	if d == want || strings.HasSuffix(d, "."+want) {
		return n, sc
	}
	return nil, nil
}

// callArgs are one call's positional and keyword arguments.
type callArgs struct {
	pos []*node
	kw  map[string]*node
}

func argsOf(call *node, src []byte) callArgs {
	pos, kw := splitArgs(call, src)
	return callArgs{pos: pos, kw: kw}
}

// get returns the argument passed as keyword name or, failing that, at position i
// (a negative i: keyword only), or nil.
func (a callArgs) get(i int, name string) *node {
	if v := a.kw[name]; v != nil {
		return v
	}
	if i >= 0 && i < len(a.pos) {
		return a.pos[i]
	}
	return nil
}

// reqParts is what a request site's arguments say, before it becomes a Call.
type reqParts struct {
	urlNode *node
	url     sval
	method  string // set by the arguments themselves (urllib), "" to keep the site's
	headers []kv
	extra   []lang.CallParam // parameters sent outside the URL and the headers
}

// facts evaluates a request site in sc.
func (sc *scope) facts(rs *reqSite) lang.Call {
	src := sc.m.src
	sc = sc.with(rs.call.Start)
	args := argsOf(rs.call, src)
	c := lang.Call{Line: rs.call.Row + 1, Library: rs.lib, Callee: rs.callee, Method: rs.method}
	if rs.methodAt >= 0 {
		if mv := sc.str(args.get(rs.methodAt, "method")); mv.complete {
			c.Method = strings.ToUpper(mv.s)
		}
	}
	var p reqParts
	switch rs.lib {
	case lang.LibURLLib:
		p = sc.urlopenParts(rs, args)
	case lang.LibHTTPClient:
		p = sc.httpClientParts(rs, args)
	default:
		p = sc.clientParts(rs, args)
	}
	if p.method != "" {
		c.Method = p.method
	}
	if p.urlNode != nil {
		c.URLExpr = p.urlNode.Text(src)
	}
	setURL(&c, p.url)
	setHeaders(&c, p.headers, src)
	// path and query parameters come first, in URL order
	c.Params = lang.DedupParams(slices.Concat(lang.URLParams(c.Path, c.Query), p.extra, headerParams(p.headers)))
	return c
}

// urlopenParts reads urlopen(url_or_request, data): the URL, headers, data and method
// of a urllib Request(...) when the argument is one, and add_header calls on it.
func (sc *scope) urlopenParts(rs *reqSite, args callArgs) reqParts {
	src := sc.m.src
	p := reqParts{urlNode: args.get(rs.urlAt, "url")}
	req, rsc := sc.resolveCall(p.urlNode, "Request")
	if req == nil {
		p.url = sc.str(p.urlNode)
		p.method = "GET"
		if args.get(1, "data") != nil {
			p.method = "POST"
		}
		return p
	}
	rargs := argsOf(req, src)
	p.urlNode = rargs.get(0, "url")
	p.url = rsc.str(p.urlNode)
	p.headers = append(p.headers, rsc.dict(rargs.get(2, "headers"))...)
	if mv := rargs.get(4, "method"); mv != nil {
		if s := rsc.str(mv); s.complete {
			p.method = strings.ToUpper(s.s)
		}
	} else if rargs.get(1, "data") != nil {
		p.method = "POST"
	} else {
		p.method = "GET"
	}
	if d := rargs.get(1, "data"); d != nil {
		p.extra = append(p.extra, dictParams(rsc.dict(d), lang.LocData)...)
	}
	// req.add_header("k", "v")
	if reqArg := args.get(0, "url"); reqArg != nil && reqArg.Type == "identifier" && sc.fn != nil {
		p.headers = append(p.headers, sc.addHeaders(reqArg.Text(src))...)
	}
	return p
}

// httpClientParts reads conn.request(method, path, body, headers): the URL is the
// connection's host and scheme joined with the path.
func (sc *scope) httpClientParts(rs *reqSite, args callArgs) reqParts {
	p := reqParts{urlNode: args.get(rs.urlAt, "url")}
	path := sc.str(p.urlNode)
	host, scheme := sval{}, "https"
	if rs.client != nil {
		cargs := argsOf(rs.client, sc.m.src)
		csc := sc.clientScope(rs)
		if h := cargs.get(0, "host"); h != nil {
			host = csc.str(h)
		}
		if strings.HasSuffix(sc.m.dotted(rs.client.Child("function"), csc.fn), "HTTPConnection") {
			scheme = "http"
		}
	}
	if host.s == "" {
		host = hole("host")
	}
	if strings.Contains(path.s, "://") {
		p.url = path
	} else {
		p.url = sval{s: scheme + "://" + strings.TrimSuffix(host.s, "/"), complete: host.complete}.cat(path)
	}
	p.headers = sc.dict(args.get(3, "headers"))
	if b := args.get(2, "body"); b != nil {
		p.extra = dictParams(sc.dict(b), lang.LocJSON)
	}
	return p
}

// clientParts reads a requests / httpx / aiohttp call: the URL (joined to the
// client's base_url), the session's and the call's headers, params=, json= and data=.
func (sc *scope) clientParts(rs *reqSite, args callArgs) reqParts {
	p := reqParts{urlNode: args.get(rs.urlAt, "url")}
	p.url = sc.str(p.urlNode)
	if rs.client != nil && !strings.Contains(p.url.s, "://") {
		cargs := argsOf(rs.client, sc.m.src)
		pos := -1 // only aiohttp takes base_url positionally
		if rs.lib == lang.LibAIOHTTP {
			pos = 0
		}
		if base := cargs.get(pos, "base_url"); base != nil {
			p.url = joinPath(sc.clientScope(rs).str(base), p.url)
		}
	}
	p.headers = slices.Concat(sc.sessionHeaders(rs), sc.dict(args.kw["headers"]))
	p.extra = slices.Concat(dictParams(sc.dict(args.kw["params"]), lang.LocQuery), dictParams(sc.dict(args.kw["json"]), lang.LocJSON))
	if d := args.kw["data"]; d != nil {
		loc := lang.LocData
		if d.Type == "call" && strings.HasSuffix(sc.m.dotted(d.Child("function"), sc.fn), "dumps") {
			loc = lang.LocJSON
		}
		p.extra = append(p.extra, dictParams(sc.dict(d), loc)...)
	}
	return p
}

// addHeaders finds req.add_header(k, v) calls on the named request object.
func (sc *scope) addHeaders(name string) []kv {
	src := sc.m.src
	var out []kv
	sc.fn.def.Walk(func(n *node) bool {
		if n.Type != "call" || n.Start >= sc.at {
			return n.Start < sc.at
		}
		fn := n.Child("function")
		if fn != nil && fn.Type == "attribute" && fn.Child("attribute").Text(src) == "add_header" && fn.Child("object").Text(src) == name {
			pos, _ := splitArgs(n, src)
			if len(pos) == 2 {
				if k := sc.str(pos[0]); k.complete {
					out = append(out, kv{key: k.s, val: pos[1], sc: sc.with(n.Start)})
				}
			}
		}
		return true
	})
	return out
}

func setURL(c *lang.Call, u sval) { c.SetURL(u.s, u.complete) }

func setHeaders(c *lang.Call, hs []kv, src []byte) {
	for _, h := range hs {
		v := h.sc.str(h.val)
		expr := ""
		if h.val != nil {
			expr = h.val.Text(src)
		}
		c.SetHeader(h.key, v.s, v.complete, expr)
	}
	c.HostFromRapidAPI()
}

// headerParams are the headers that are API parameters, in order.
func headerParams(hs []kv) []lang.CallParam {
	var out []lang.CallParam
	for _, h := range hs {
		if !lang.OrdinaryHeader(h.key) {
			out = append(out, headerParam(h))
		}
	}
	return out
}

func headerParam(h kv) lang.CallParam {
	p := lang.CallParam{Name: h.key, Location: lang.LocHeader}
	if literalNode(h.val) {
		if v := h.sc.str(h.val); v.complete {
			p.Example, p.Literal = v.s, true
		}
	}
	return p
}

// literalNode reports whether n is written as a literal.
func literalNode(n *node) bool {
	if n == nil {
		return false
	}
	switch n.Type {
	case "string":
		return !hasInterpolation(n)
	case "concatenated_string", "integer", "float", "true", "false", "none":
		return true
	case "unary_operator":
		k := n.NamedKids()
		return len(k) == 1 && literalNode(k[0])
	}
	return false
}

func dictParams(kvs []kv, loc string) []lang.CallParam {
	var out []lang.CallParam
	for _, e := range kvs {
		p := lang.CallParam{Name: e.key, Location: loc}
		if literalNode(e.val) {
			if v := e.sc.str(e.val); v.complete {
				p.Example, p.Literal = v.s, true
			}
		}
		out = append(out, p)
	}
	return out
}

func hasInterpolation(n *node) bool {
	for _, c := range n.Children {
		if c.Type == "interpolation" {
			return true
		}
	}
	return false
}
