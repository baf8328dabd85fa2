package javascript

import (
	"regexp"
	"slices"
	"strings"

	"sccg/lang"
)

// style is how a library's call takes its URL, method and options.
type style int

const (
	styleFetch          style = iota + 1 // fetch(url, {method, headers, body})
	styleConfig                          // axios(config), axios.request(config)
	styleURLConfig                       // axios(url, config) / axios.get(url, config) / got(url, opts) / ky.get(url, opts)
	styleURLData                         // axios.post(url, data, config)
	styleChain                           // superagent.get(url).query().set().send(); unirest
	styleXHR                             // xhr.open(method, url) + setRequestHeader + send
	styleJQuery                          // $.ajax(settings) / $.ajax(url, settings)
	styleJQueryVerb                      // $.get(url, data) / $.getJSON / $.post
	styleNodeHTTP                        // https.get(url|options[, options])
	styleRequest                         // request(options) / request(url, options)
	styleAngularRequest                  // http.request(method, url, options)
)

// reqSite is one HTTP request call found in the tree, before evaluation.
type reqSite struct {
	call   *node
	fn     *fnInfo // innermost enclosing function, nil at module level
	lib    string
	callee string
	method string // fixed by the callee (axios.get → GET), else ""
	style  style
	ctor   *node  // the instance's constructor call (axios.create({...})), if known
	scheme string // Node's http or https module
	// receiver is the text of the object a chained or XHR request is built on.
	receiver string
}

var verbs = map[string]string{"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE",
	"del": "DELETE", "head": "HEAD", "options": "OPTIONS"}

// fetchFamily maps what a fetch-like callee resolves to onto its library.
var fetchFamily = map[string]string{
	"fetch": lang.LibFetch, "window.fetch": lang.LibFetch, "globalThis.fetch": lang.LibFetch, "self.fetch": lang.LibFetch,
	"global.fetch": lang.LibFetch, "cross-fetch": lang.LibFetch, "isomorphic-fetch": lang.LibFetch,
	"isomorphic-unfetch": lang.LibFetch, "unfetch": lang.LibFetch, "cross-fetch.fetch": lang.LibFetch,
	"node-fetch": lang.LibNodeFetch, "node-fetch.default": lang.LibNodeFetch, "node-fetch.fetch": lang.LibNodeFetch,
	"undici.fetch": lang.LibUndici,
}

// instanceCtors maps the factories of preconfigured clients onto their library.
var instanceCtors = map[string]string{
	"axios.create": lang.LibAxios, "got.extend": lang.LibGot, "ky.create": lang.LibKy, "ky.extend": lang.LibKy,
	"ky-universal.create": lang.LibKy, "ky-universal.extend": lang.LibKy,
	"request.defaults": lang.LibRequest, "request-promise.defaults": lang.LibRequest,
}

// libOfModule names the library a module path's package stands for.
func libOfModule(d string) (lib, rest string) {
	first, rest, _ := strings.Cut(d, ".")
	switch first {
	case "axios":
		return lang.LibAxios, rest
	case "got":
		return lang.LibGot, rest
	case "ky", "ky-universal":
		return lang.LibKy, rest
	case "superagent":
		return lang.LibSuperagent, rest
	case "jquery", "$", "jQuery":
		return lang.LibJQuery, rest
	case "http", "https":
		return lang.LibNodeHTTP, rest
	case "undici":
		return lang.LibUndici, rest
	case "request", "request-promise", "request-promise-native":
		return lang.LibRequest, rest
	case "unirest":
		return lang.LibUnirest, rest
	}
	return "", ""
}

// clientName matches the names an axios instance made elsewhere usually has, for a
// receiver whose construction is not visible in the file (imported, injected).
var clientName = regexp.MustCompile(`(?i)(client$|^api$|^\$?http$|instance$|^axios)`)

// requestSite recognises call as an HTTP request, or returns nil.
func (m *module) requestSite(call *node, f *fnInfo) *reqSite {
	src := m.src
	fn := unwrap(call.Child("function"))
	if fn == nil {
		return nil
	}
	rs := &reqSite{call: call, fn: f, callee: strings.Join(strings.Fields(fn.Text(src)), "")}
	d := m.dotted(fn, f)
	if lib, ok := fetchFamily[d]; ok && !(d == "fetch" && bound(f, "fetch")) {
		rs.lib, rs.style = lib, styleFetch
		return rs
	}
	if fn.Type == "identifier" && (fn.Text(src) == "$" || fn.Text(src) == "jQuery") {
		return nil // $(selector)
	}
	// a module's own calls: axios.get, got(url), https.request, unirest.get …
	if lib, rest := libOfModule(d); lib != "" && (fn.Type == "identifier" && (m.importPath(fn.Text(src)) != "" || m.pageGlobal(fn, f, lib)) ||
		fn.Type == "member_expression" && (m.isModuleRef(fn, f) || m.pageGlobal(fn, f, lib))) {
		if base := baseName(fn, src); lib == lang.LibJQuery && (bound(f, base) || len(m.bindings[base]) > 0 && m.importPath(base) == "") {
			return nil // $ = cheerio.load(html) is no jQuery
		}
		if m.moduleCall(rs, lib, d, rest) {
			return rs
		}
		return nil
	}
	// jQuery and the browser's globals need no import
	if fn.Type == "member_expression" {
		obj := unwrap(fn.Child("object"))
		prop := fn.Child("property").Text(src)
		if obj.Type == "identifier" && (obj.Text(src) == "$" || obj.Text(src) == "jQuery") && !bound(f, obj.Text(src)) && len(m.bindings[obj.Text(src)]) == 0 {
			if m.moduleCall(rs, lang.LibJQuery, "jquery."+prop, prop) {
				return rs
			}
			return nil
		}
		if prop == "open" && m.isXHR(obj, f) {
			rs.lib, rs.style, rs.receiver = lang.LibXHR, styleXHR, strings.Join(strings.Fields(obj.Text(src)), "")
			return rs
		}
		// Angular's HttpClient injected into a service: this.http.get<T>(url, {params})
		if v, ok := verbs[prop]; (ok && prop != "del") || prop == "request" {
			if m.angularClient(obj, f) {
				rs.lib, rs.method, rs.style = lang.LibAngular, v, styleURLConfig
				switch {
				case prop == "request":
					rs.style = styleAngularRequest
				case v == "POST" || v == "PUT" || v == "PATCH":
					rs.style = styleURLData
				}
				return rs
			}
		}
		// a preconfigured instance: api.get("/x") where api = axios.create({...})
		if v, ok := verbs[prop]; ok || prop == "request" {
			lib, ctor := m.instanceOf(obj, f, 0)
			if lib == "" && clientName.MatchString(lastName(obj, src)) && m.imports(lang.LibAxios) && prop != "del" && !routeRegistration(call) {
				lib = lang.LibAxios
			}
			if lib == "" {
				return nil
			}
			rs.lib, rs.ctor, rs.method = lib, ctor, v
			switch {
			case prop == "request":
				rs.style = styleConfig
				if lib == lang.LibRequest {
					rs.style = styleRequest
				}
			case lib == lang.LibAxios && (v == "POST" || v == "PUT" || v == "PATCH"):
				rs.style = styleURLData
			case lib == lang.LibRequest:
				rs.style = styleRequest
			default:
				rs.style = styleURLConfig
			}
			return rs
		}
		return nil
	}
	// an instance called directly: api({url}) or api("/x", {…})
	if fn.Type == "identifier" {
		if lib, ctor := m.instanceOf(fn, f, 0); lib != "" && ctor != nil {
			rs.lib, rs.ctor = lib, ctor
			switch lib {
			case lang.LibAxios:
				rs.style = styleConfig
				if a := positional(call); len(a) > 0 && a[0].Type != "object" {
					rs.style = styleURLConfig
				}
			case lang.LibRequest:
				rs.style = styleRequest
			default:
				rs.style = styleURLConfig
			}
			return rs
		}
	}
	return nil
}

// routeRegistration reports a call that registers a route rather than making a
// request: a path followed by a handler (router.get("/users", (req, res) => …)).
func routeRegistration(call *node) bool {
	a := positional(call)
	return len(a) >= 2 && (a[0].Type == "string" || a[0].Type == "template_string") && isFunction(a[len(a)-1])
}

// isModuleRef reports whether a member callee starts from an imported name.
func (m *module) isModuleRef(fn *node, f *fnInfo) bool {
	base := baseName(fn, m.src)
	return base != "" && !bound(f, base) && m.importPath(base) != "" || base != "" && m.localRequire(base, f)
}

// pageGlobal reports a call of a client a page's <script> tag provides: jQuery
// ($.ajax, jQuery.get; a $ bound to something else is told apart by the caller),
// and axios read and bound nowhere in the file.
func (m *module) pageGlobal(fn *node, f *fnInfo, lib string) bool {
	if lib == lang.LibJQuery {
		return true
	}
	base := baseName(fn, m.src)
	return lib == lang.LibAxios && base == "axios" && !bound(f, base) && len(m.bindings[base]) == 0
}

// localRequire reports a local name bound to require(...) in f or its parents.
func (m *module) localRequire(name string, f *fnInfo) bool {
	for g := f; g != nil; g = g.parent {
		if ls := g.locals[name]; len(ls) > 0 {
			_, _, ok := requireOf(ls[len(ls)-1].value, m.src)
			return ok
		}
	}
	return false
}

// moduleCall fills rs for a call of a library's module: d is the resolved callee,
// rest what follows the module's name ("get", "", "default.post").
func (m *module) moduleCall(rs *reqSite, lib, d, rest string) bool {
	rest = strings.TrimPrefix(rest, "default.")
	if rest == "default" {
		rest = ""
	}
	rs.lib = lib
	v, isVerb := verbs[rest]
	switch lib {
	case lang.LibAxios:
		switch {
		case rest == "":
			rs.style = styleConfig
			if a := positional(rs.call); len(a) > 0 && a[0].Type != "object" && a[0].Type != "identifier" {
				rs.style = styleURLConfig
			} else if len(a) > 1 {
				rs.style = styleURLConfig
			}
		case rest == "request":
			rs.style = styleConfig
		case isVerb && rest != "del":
			rs.method = v
			rs.style = styleURLConfig
			if v == "POST" || v == "PUT" || v == "PATCH" {
				rs.style = styleURLData
			}
		default:
			return false
		}
	case lang.LibGot, lang.LibKy:
		switch {
		case rest == "":
		case isVerb && rest != "del":
			rs.method = v
		default:
			return false
		}
		rs.style = styleURLConfig
	case lang.LibSuperagent:
		switch {
		case rest == "":
			// superagent("GET", url)
			rs.style = styleChain
		case isVerb:
			rs.method, rs.style = v, styleChain
		default:
			return false
		}
	case lang.LibUnirest:
		switch {
		case rest == "":
			rs.style = styleChain
		case isVerb:
			rs.method, rs.style = v, styleChain
		default:
			return false
		}
	case lang.LibJQuery:
		switch rest {
		case "ajax":
			rs.style = styleJQuery
		case "get", "getJSON":
			rs.method, rs.style = "GET", styleJQueryVerb
		case "post":
			rs.method, rs.style = "POST", styleJQueryVerb
		default:
			return false
		}
	case lang.LibNodeHTTP:
		switch rest {
		case "get":
			rs.method = "GET"
		case "request":
		default:
			return false
		}
		rs.style = styleNodeHTTP
		rs.scheme = strings.SplitN(d, ".", 2)[0]
	case lang.LibUndici:
		switch rest {
		case "request":
			rs.style = styleURLConfig
		case "fetch":
			rs.style = styleFetch
		default:
			return false
		}
	case lang.LibRequest:
		switch {
		case rest == "":
		case isVerb:
			rs.method = v
		default:
			return false
		}
		rs.style = styleRequest
	default:
		return false
	}
	return true
}

// imports reports whether the file imports a library.
func (m *module) imports(lib string) bool {
	for _, bs := range m.bindings {
		for _, b := range bs {
			if b.kind == "import" {
				if l, _ := libOfModule(normalizeSpec(b.path)); l == lib {
					return true
				}
			}
		}
	}
	return false
}

func lastName(n *node, src []byte) string {
	n = unwrap(n)
	switch n.Type {
	case "identifier":
		return n.Text(src)
	case "member_expression":
		return n.Child("property").Text(src)
	}
	return ""
}

// angularTyped matches a class member or constructor parameter that holds
// Angular's HttpClient: "http: HttpClient" or "http = inject(HttpClient)".
var angularTyped = regexp.MustCompile(`(\w+)\s*[?!]?\s*(?::\s*HttpClient\b|=\s*inject\s*\(\s*HttpClient\s*\))`)

// angularClient reports whether obj (this.http) is the HttpClient the file
// imports from @angular/common/http and its class has injected.
func (m *module) angularClient(obj *node, f *fnInfo) bool {
	if obj.Type != "member_expression" || unwrap(obj.Child("object")).Type != "this" {
		return false
	}
	if normalizeSpec(m.importPath("HttpClient")) != "@angular/common/http.HttpClient" {
		return false
	}
	ci := enclosingClass(f)
	if ci == nil {
		return false
	}
	name := obj.Child("property").Text(m.src)
	for _, mm := range angularTyped.FindAllStringSubmatch(ci.node.Text(m.src), -1) {
		if mm[1] == name {
			return true
		}
	}
	return false
}

// isXHR reports whether obj is an XMLHttpRequest: new XMLHttpRequest() bound to
// a name or a field.
func (m *module) isXHR(obj *node, f *fnInfo) bool {
	sc := &scope{m: m, fn: f, at: obj.Start}
	var v *node
	switch obj.Type {
	case "identifier":
		v, _ = sc.lookup(obj.Text(m.src))
	case "member_expression":
		v, _ = sc.field(obj.Child("object"), obj.Child("property").Text(m.src))
	}
	v = unwrap(v)
	return v != nil && v.Type == "new_expression" && (isCtor(v, "XMLHttpRequest", m.src) || isCtor(v, "ActiveXObject", m.src))
}

// instanceOf reports whether n is a preconfigured client (axios.create(…),
// got.extend(…), ky.create(…), request.defaults(…)) and returns its library and
// constructor call.
func (m *module) instanceOf(n *node, f *fnInfo, depth int) (string, *node) {
	n = unwrap(n)
	if n == nil || depth > 6 {
		return "", nil
	}
	sc := &scope{m: m, fn: f, at: n.Start}
	switch n.Type {
	case "call_expression":
		fn := unwrap(n.Child("function"))
		d := m.dotted(fn, f)
		if lib, ok := instanceCtors[d]; ok {
			return lib, n
		}
		// an instance extended again: api.extend({...})
		if fn != nil && fn.Type == "member_expression" {
			if p := fn.Child("property").Text(m.src); p == "extend" || p == "create" {
				return m.instanceOf(fn.Child("object"), f, depth+1)
			}
		}
		// a same-file factory: function client() { return axios.create(...) }
		if fn != nil && fn.Type == "identifier" {
			if g, ok := m.topFuncs[fn.Text(m.src)]; ok {
				lib, ctor := "", (*node)(nil)
				g.node.Walk(func(r *node) bool {
					if lib != "" || (r != g.node && functionTypes[r.Type]) {
						return false
					}
					if r.Type == "return_statement" {
						if k := r.NamedKids(); len(k) == 1 {
							lib, ctor = m.instanceOf(k[0], g, depth+1)
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
	case "identifier", "shorthand_property_identifier":
		if v, vs := sc.lookup(n.Text(m.src)); v != nil {
			return m.instanceOf(v, vs.fn, depth+1)
		}
		// an imported default instance from the same repository is unknown here
	case "member_expression":
		if v, vs := sc.field(n.Child("object"), n.Child("property").Text(m.src)); v != nil {
			return m.instanceOf(v, vs.fn, depth+1)
		}
	}
	return "", nil
}

// reqParts is what a request site's arguments say, before it becomes a Call.
type reqParts struct {
	urlNode *node
	url     sval
	method  string
	headers []kv
	extra   []lang.CallParam
}

// facts evaluates a request site in sc.
func (sc *scope) facts(rs *reqSite) lang.Call {
	src := sc.m.src
	sc = sc.with(rs.call.Start)
	c := lang.Call{Line: rs.call.Row + 1, Library: rs.lib, Callee: rs.callee, Method: rs.method}
	args := positional(rs.call)
	arg := func(i int) *node {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	var p reqParts
	switch rs.style {
	case styleFetch:
		p = sc.fetchParts(arg(0), arg(1))
	case styleConfig:
		if a := arg(0); a != nil && !sc.isObject(a) && (rs.lib == lang.LibAxios || rs.lib == lang.LibRequest) && rs.callee != "axios.request" {
			p = sc.configParts(rs, a, arg(1), nil) // axios(url[, config]) with the URL in a variable
		} else {
			p = sc.configParts(rs, nil, arg(0), nil)
		}
	case styleURLConfig:
		p = sc.configParts(rs, arg(0), arg(1), nil)
	case styleURLData:
		p = sc.configParts(rs, arg(0), arg(2), arg(1))
	case styleAngularRequest:
		p = sc.configParts(rs, arg(1), arg(2), nil)
		if mv := sc.str(arg(0)); mv.complete {
			p.method = strings.ToUpper(mv.s)
		}
	case styleRequest:
		if a := unwrap(arg(0)); a != nil && sc.isObject(a) {
			p = sc.configParts(rs, nil, a, nil)
		} else {
			p = sc.configParts(rs, a, arg(1), nil)
		}
	case styleJQuery:
		if a := unwrap(arg(0)); a != nil && sc.isObject(a) {
			p = sc.jqueryParts(nil, a)
		} else {
			p = sc.jqueryParts(a, arg(1))
		}
	case styleJQueryVerb:
		p.urlNode = arg(0)
		p.url = sc.str(p.urlNode)
		if d := arg(1); d != nil && !isFunction(d) {
			loc := lang.LocQuery
			if rs.method == "POST" {
				loc = sc.bodyLoc(d, lang.LocData)
			}
			p.extra = dictParams(sc.dict(d), loc)
		}
	case styleNodeHTTP:
		p = sc.nodeHTTPParts(rs, arg(0), arg(1))
	case styleChain:
		p = sc.chainParts(rs, args)
	case styleXHR:
		p = sc.xhrParts(rs, args)
	}
	if p.method != "" {
		c.Method = p.method
	}
	if c.Method == "" && rs.style != styleXHR {
		c.Method = defaultMethod(rs, p)
	}
	if p.urlNode != nil {
		c.URLExpr = p.urlNode.Text(src)
	}
	c.SetURL(p.url.s, p.url.complete)
	c.PathFrom = lang.WholePathParam(p.url.pieces())
	if c.URL == "" && c.PathFrom == "" {
		c.StateFrom = sc.stateName(p.urlNode)
	}
	for _, h := range p.headers {
		v := h.sc.str(h.val)
		expr := ""
		if h.val != nil {
			expr = h.val.Text(src)
		}
		c.SetHeader(h.key, v.s, v.complete, expr)
	}
	c.HostFromRapidAPI()
	c.Params = lang.DedupParams(slices.Concat(lang.URLParams(c.Path, c.Query), p.extra, headerParams(p.headers)))
	c.Callback = callbackOf(rs)
	return c
}

// defaultMethod is the method a library sends when the call names none: GET for
// every client here once its options are visible.
func defaultMethod(rs *reqSite, p reqParts) string {
	if p.urlNode == nil && p.url.s == "" {
		return ""
	}
	return "GET"
}

// callbackOf names the anonymous callback the request is made in, relative to the
// named function it belongs to.
func callbackOf(rs *reqSite) string {
	for g := rs.fn; g != nil && !g.named; g = g.parent {
		if g.callback != "" {
			return g.callback
		}
	}
	return ""
}

func isFunction(n *node) bool {
	n = unwrap(n)
	return n != nil && (n.Type == "arrow_function" || n.Type == "function_expression" || n.Type == "function")
}

// isObject reports an object expression: a literal, or a name bound to one.
func (sc *scope) isObject(n *node) bool {
	n = unwrap(n)
	if n == nil {
		return false
	}
	if n.Type == "object" {
		return true
	}
	if n.Type == "identifier" || n.Type == "shorthand_property_identifier" {
		if v, _ := sc.lookup(n.Text(sc.m.src)); v != nil {
			return unwrap(v) != nil && unwrap(v).Type == "object"
		}
	}
	return false
}

// get returns the value of key in the object n (and the scope to evaluate it in).
func (sc *scope) get(n *node, keys ...string) (*node, *scope) {
	if n == nil {
		return nil, nil
	}
	entries := sc.dict(n)
	for _, k := range keys {
		for i := len(entries) - 1; i >= 0; i-- {
			if entries[i].key == k {
				return entries[i].val, entries[i].sc
			}
		}
	}
	return nil, nil
}

// fetchParts reads fetch(url, {method, headers, body}).
func (sc *scope) fetchParts(u, opts *node) reqParts {
	p := reqParts{urlNode: u, url: sc.str(u)}
	if uu := unwrap(u); uu != nil && uu.Type == "new_expression" && isCtor(uu, "Request", sc.m.src) {
		a := positional(uu)
		if len(a) > 0 {
			p.urlNode, p.url = a[0], sc.str(a[0])
		}
		if len(a) > 1 && opts == nil {
			opts = a[1]
		}
	}
	if opts == nil {
		p.method = "GET"
		return p
	}
	if mv, ms := sc.get(opts, "method"); mv != nil {
		if s := ms.str(mv); s.complete {
			p.method = strings.ToUpper(s.s)
		}
	} else if sc.isObject(opts) {
		p.method = "GET"
	}
	if hv, hs := sc.get(opts, "headers"); hv != nil {
		p.headers = hs.dict(hv)
	}
	if bv, bs := sc.get(opts, "body"); bv != nil {
		p.extra = dictParams(bs.dict(bv), bs.bodyLoc(bv, lang.LocJSON))
	}
	if qv, qs := sc.get(opts, "query"); qv != nil { // undici's fetch-like request
		p.extra = append(p.extra, dictParams(qs.dict(qv), lang.LocQuery)...)
	}
	return p
}

// bodyLoc says how a body is sent: JSON.stringify(…) is JSON; URLSearchParams,
// FormData and query-string encoders are form data; a plain object is def.
func (sc *scope) bodyLoc(n *node, def string) string {
	for i := 0; i < 4; i++ {
		n = unwrap(n)
		if n == nil {
			return def
		}
		switch n.Type {
		case "call_expression":
			if fn := unwrap(n.Child("function")); fn != nil && fn.Type == "member_expression" && fn.Child("property").Text(sc.m.src) == "toString" {
				n = fn.Child("object")
				continue
			}
			d := sc.m.dotted(n.Child("function"), sc.fn)
			switch {
			case d == "JSON.stringify":
				return lang.LocJSON
			case strings.HasSuffix(d, ".stringify") || strings.HasSuffix(d, "encode"):
				return lang.LocData
			}
			return def
		case "new_expression":
			if isCtor(n, "URLSearchParams", sc.m.src) || isCtor(n, "FormData", sc.m.src) {
				return lang.LocData
			}
			return def
		case "identifier", "shorthand_property_identifier":
			v, vs := sc.lookup(n.Text(sc.m.src))
			if v == nil {
				return def
			}
			n, sc = v, vs
		default:
			return def
		}
	}
	return def
}

// configParts reads a config-object call (axios, got, ky, undici.request,
// request): URL from the argument or the config's url/uri, joined to the
// instance's baseURL/prefixUrl; method, headers, query params and body from the
// config and the instance's defaults.
func (sc *scope) configParts(rs *reqSite, u, cfg, data *node) reqParts {
	p := reqParts{urlNode: u}
	if u == nil && cfg != nil {
		if v, _ := sc.get(cfg, "url", "uri"); v != nil {
			p.urlNode = v
		}
	}
	if p.urlNode != nil {
		if v, vs := sc.get(cfg, "url", "uri"); u == nil && v != nil {
			p.url = vs.str(v)
		} else {
			p.url = sc.str(p.urlNode)
		}
	}
	var ctorCfg *node
	var csc *scope
	if rs.ctor != nil {
		if a := positional(rs.ctor); len(a) > 0 {
			ctorCfg = a[0]
			csc = sc.scopeAt(rs.ctor)
			csc.at = rs.ctor.Start
		}
	}
	base, bs := sc.get(cfg, "baseURL", "prefixUrl", "baseUrl")
	if base == nil && ctorCfg != nil {
		base, bs = csc.get(ctorCfg, "baseURL", "prefixUrl", "baseUrl")
	}
	if base != nil && !strings.Contains(p.url.s, "://") {
		p.url = joinPath(bs.str(base), p.url)
	}
	if mv, ms := sc.get(cfg, "method"); mv != nil {
		if s := ms.str(mv); s.complete {
			p.method = strings.ToUpper(s.s)
		}
	}
	if ctorCfg != nil {
		if hv, hs := csc.get(ctorCfg, "headers"); hv != nil {
			p.headers = hs.dict(hv)
		}
		if qv, qs := csc.get(ctorCfg, "params", "searchParams", "qs"); qv != nil {
			p.extra = append(p.extra, dictParams(qs.dict(qv), lang.LocQuery)...)
		}
	}
	if rs.ctor != nil {
		p.headers = append(p.headers, sc.defaultHeaders(rs)...)
	}
	if hv, hs := sc.get(cfg, "headers"); hv != nil {
		p.headers = append(p.headers, hs.dict(hv)...)
	}
	if qv, qs := sc.get(cfg, "params", "searchParams", "qs", "query"); qv != nil {
		if q := unwrap(qv); q != nil && (q.Type == "string" || q.Type == "template_string") {
			v := qs.str(q)
			for _, prm := range lang.URLParams("", strings.TrimPrefix(v.s, "?")) {
				p.extra = append(p.extra, prm)
			}
		} else {
			p.extra = append(p.extra, dictParams(qs.dict(qv), lang.LocQuery)...)
		}
	}
	if data != nil {
		p.extra = append(p.extra, dictParams(sc.dict(data), sc.bodyLoc(data, lang.LocJSON))...)
	}
	for _, k := range []string{"data", "json", "body", "form", "formData"} {
		if dv, ds := sc.get(cfg, k); dv != nil {
			loc := lang.LocJSON
			if k == "form" || k == "formData" {
				loc = lang.LocData
			} else if k == "body" && rs.lib != lang.LibRequest {
				loc = ds.bodyLoc(dv, lang.LocData)
			} else {
				loc = ds.bodyLoc(dv, lang.LocJSON)
			}
			p.extra = append(p.extra, dictParams(ds.dict(dv), loc)...)
		}
	}
	return p
}

// defaultHeaders finds headers set on an instance after it was made:
// api.defaults.headers.common["k"] = v and api.defaults.headers["k"] = v at module
// level or in the function.
func (sc *scope) defaultHeaders(rs *reqSite) []kv {
	src := sc.m.src
	d := rs.ctor.Parent
	if d == nil || d.Type != "variable_declarator" || d.Child("name") == nil {
		return nil
	}
	name := d.Child("name").Text(src)
	var out []kv
	scan := func(n *node) {
		sc.m.scan(n, func(a *node) bool {
			if a.Type != "assignment_expression" {
				return true
			}
			l := a.Child("left")
			if l == nil || l.Type != "subscript_expression" {
				return true
			}
			t := strings.Join(strings.Fields(l.Child("object").Text(src)), "")
			if t == name+".defaults.headers.common" || t == name+".defaults.headers" {
				if k := sc.str(l.Child("index")); k.complete {
					out = append(out, kv{key: k.s, val: a.Child("right"), sc: sc.scopeAt(a)})
				}
			}
			return true
		})
	}
	for _, st := range sc.m.mutations[name] {
		scan(st)
	}
	return out
}

// jqueryParts reads $.ajax(settings) / $.ajax(url, settings): url, type/method,
// data (query for GET, form data otherwise, JSON when stringified) and headers.
func (sc *scope) jqueryParts(u, cfg *node) reqParts {
	p := reqParts{urlNode: u}
	if u == nil {
		p.urlNode, _ = sc.get(cfg, "url")
	}
	if u != nil {
		p.url = sc.str(u)
	} else if v, vs := sc.get(cfg, "url"); v != nil {
		p.url = vs.str(v)
	}
	p.method = "GET"
	if mv, ms := sc.get(cfg, "method", "type"); mv != nil {
		p.method = ""
		if s := ms.str(mv); s.complete {
			p.method = strings.ToUpper(s.s)
		}
	}
	if hv, hs := sc.get(cfg, "headers"); hv != nil {
		p.headers = hs.dict(hv)
	}
	if dv, ds := sc.get(cfg, "data"); dv != nil {
		loc := lang.LocQuery
		if p.method != "GET" && p.method != "" {
			loc = ds.bodyLoc(dv, lang.LocData)
		}
		p.extra = dictParams(ds.dict(dv), loc)
	}
	return p
}

// nodeHTTPParts reads https.get/request(url[, options]) and (options): the URL
// from the string, or from the options' protocol, hostname/host, port and path.
func (sc *scope) nodeHTTPParts(rs *reqSite, a0, a1 *node) reqParts {
	p := reqParts{}
	opts := a1
	if isFunction(opts) {
		opts = nil
	}
	if a0 != nil && sc.isObject(a0) {
		opts = a0
		host, hs := sc.get(opts, "hostname", "host")
		path, ps := sc.get(opts, "path")
		scheme := rs.scheme
		if pv, pvs := sc.get(opts, "protocol"); pv != nil {
			if s := pvs.str(pv); s.complete {
				scheme = strings.TrimSuffix(s.s, ":")
			}
		}
		hv := hole("host")
		if host != nil {
			hv = hs.str(host)
			p.urlNode = host
		}
		u := lit(scheme + "://").cat(hv)
		if pt, pts := sc.get(opts, "port"); pt != nil {
			if s := pts.str(pt); s.complete && s.s != "443" && s.s != "80" {
				u = u.cat(lit(":" + s.s))
			}
		}
		if path != nil {
			u = u.cat(ps.str(path))
			p.urlNode = path
		}
		p.url = u
	} else {
		p.urlNode = a0
		p.url = sc.str(a0)
	}
	if opts != nil {
		if mv, ms := sc.get(opts, "method"); mv != nil {
			if s := ms.str(mv); s.complete {
				p.method = strings.ToUpper(s.s)
			}
		}
		if hv, hs := sc.get(opts, "headers"); hv != nil {
			p.headers = hs.dict(hv)
		}
	}
	if p.method == "" && rs.method == "" {
		p.method = "GET"
	}
	// req.write(JSON.stringify(body)) on the request the call returns
	if name := sc.m.varName(rs.call); name != "" {
		for _, c := range sc.callsOn(name, rs.call) {
			if c.method == "write" || c.method == "end" {
				if len(c.args) > 0 && !isFunction(c.args[0]) {
					p.extra = append(p.extra, dictParams(c.sc.dict(c.args[0]), c.sc.bodyLoc(c.args[0], lang.LocJSON))...)
				}
			}
		}
	}
	return p
}

// chainCall is one method call made on a request being built.
type chainCall struct {
	method string
	args   []*node
	sc     *scope
}

// chained returns the method calls chained on call: x.query(…).set(…).send(…).
func (sc *scope) chained(call *node) []chainCall {
	src := sc.m.src
	var out []chainCall
	n := call
	for {
		p := n.Parent
		if p == nil || p.Type != "member_expression" || p.Child("object") != n {
			return out
		}
		c := p.Parent
		if c == nil || c.Type != "call_expression" {
			return out
		}
		out = append(out, chainCall{method: p.Child("property").Text(src), args: positional(c), sc: sc})
		n = c
	}
}

// callsOn returns the method calls made on the variable name after from, in the
// function that holds from, with what is chained on each.
func (sc *scope) callsOn(name string, from *node) []chainCall {
	src := sc.m.src
	var out []chainCall
	root := sc.m.root
	if f := sc.m.funcAt(from); f != nil {
		root = f.node
	}
	sc.m.scan(root, func(n *node) bool {
		if n.Type != "call_expression" || n.Start < from.End {
			return true
		}
		fn := n.Child("function")
		if fn == nil || fn.Type != "member_expression" {
			return true
		}
		if o := fn.Child("object"); o == nil || o.Type != "identifier" || o.Text(src) != name {
			return true
		}
		out = append(out, chainCall{method: fn.Child("property").Text(src), args: positional(n), sc: sc.scopeAt(n)})
		out = append(out, sc.chained(n)...)
		return true
	})
	return out
}

// chainParts reads superagent and unirest: the method and URL of the first call,
// then .query/.set/.header(s)/.send/.type/.field on the chain or the variable.
func (sc *scope) chainParts(rs *reqSite, args []*node) reqParts {
	p := reqParts{}
	if rs.method == "" && len(args) >= 2 {
		// unirest("GET", url) / superagent("GET", url)
		if m := sc.str(args[0]); m.complete {
			p.method = strings.ToUpper(m.s)
		}
		p.urlNode = args[1]
	} else if len(args) > 0 {
		p.urlNode = args[0]
	}
	p.url = sc.str(p.urlNode)
	calls := sc.chained(rs.call)
	if name := sc.m.varName(rs.call); name != "" {
		calls = append(calls, sc.callsOn(name, rs.call)...)
	}
	for _, c := range calls {
		switch c.method {
		case "query", "qs":
			if len(c.args) == 1 {
				if q := unwrap(c.args[0]); q != nil && (q.Type == "string" || q.Type == "template_string") {
					p.extra = append(p.extra, lang.URLParams("", strings.TrimPrefix(c.sc.str(q).s, "?"))...)
				} else {
					p.extra = append(p.extra, dictParams(c.sc.dict(c.args[0]), lang.LocQuery)...)
				}
			}
		case "set", "header", "headers":
			if len(c.args) == 2 {
				if k := c.sc.str(c.args[0]); k.complete {
					p.headers = append(p.headers, kv{key: k.s, val: c.args[1], sc: c.sc})
				}
			} else if len(c.args) == 1 {
				p.headers = append(p.headers, c.sc.dict(c.args[0])...)
			}
		case "send", "form", "field":
			if len(c.args) == 1 {
				loc := lang.LocJSON
				if c.method != "send" {
					loc = lang.LocData
				}
				p.extra = append(p.extra, dictParams(c.sc.dict(c.args[0]), c.sc.bodyLoc(c.args[0], loc))...)
			} else if len(c.args) == 2 && c.method == "field" {
				if k := c.sc.str(c.args[0]); k.complete {
					p.extra = append(p.extra, dictParams([]kv{{key: k.s, val: c.args[1], sc: c.sc}}, lang.LocData)...)
				}
			}
		}
	}
	return p
}

// varName is the variable the value of call (or of its chain) is stored in.
func (m *module) varName(call *node) string {
	n := call
	for n.Parent != nil && (n.Parent.Type == "member_expression" || n.Parent.Type == "call_expression" ||
		n.Parent.Type == "await_expression" || n.Parent.Type == "parenthesized_expression") {
		n = n.Parent
	}
	if p := n.Parent; p != nil && p.Type == "variable_declarator" {
		if nm := p.Child("name"); nm != nil && nm.Type == "identifier" {
			return nm.Text(m.src)
		}
	}
	return ""
}

// xhrParts reads xhr.open(method, url) with the setRequestHeader and send calls
// made on the same object in the same function.
func (sc *scope) xhrParts(rs *reqSite, args []*node) reqParts {
	src := sc.m.src
	p := reqParts{}
	if len(args) >= 1 {
		if m := sc.str(args[0]); m.complete {
			p.method = strings.ToUpper(m.s)
		}
	}
	if len(args) >= 2 {
		p.urlNode = args[1]
		p.url = sc.str(args[1])
	}
	root := sc.m.root
	if f := sc.m.funcAt(rs.call); f != nil {
		root = f.node
	}
	sc.m.scan(root, func(n *node) bool {
		if n.Type != "call_expression" {
			return true
		}
		fn := n.Child("function")
		if fn == nil || fn.Type != "member_expression" || strings.Join(strings.Fields(fn.Child("object").Text(src)), "") != rs.receiver {
			return true
		}
		a := positional(n)
		switch fn.Child("property").Text(src) {
		case "setRequestHeader":
			if len(a) == 2 {
				if k := sc.str(a[0]); k.complete {
					p.headers = append(p.headers, kv{key: k.s, val: a[1], sc: sc.scopeAt(n)})
				}
			}
		case "send":
			if len(a) == 1 && a[0].Type != "null" {
				s := sc.scopeAt(n)
				p.extra = append(p.extra, dictParams(s.dict(a[0]), s.bodyLoc(a[0], lang.LocData))...)
			}
		}
		return true
	})
	return p
}

// headerParams are the headers that are API parameters, in order.
func headerParams(hs []kv) []lang.CallParam {
	var out []lang.CallParam
	for _, h := range hs {
		if !lang.OrdinaryHeader(h.key) {
			out = append(out, param1(h, lang.LocHeader))
		}
	}
	return out
}

func dictParams(kvs []kv, loc string) []lang.CallParam {
	var out []lang.CallParam
	for _, e := range kvs {
		out = append(out, param1(e, loc))
	}
	return out
}

func param1(e kv, loc string) lang.CallParam {
	p := lang.CallParam{Name: e.key, Location: loc}
	if literalNode(e.val) {
		if v := e.sc.str(e.val); v.complete {
			p.Example, p.Literal = v.s, true
		}
	}
	return p
}

// literalNode reports whether n is written as a literal.
func literalNode(n *node) bool {
	n = unwrap(n)
	if n == nil {
		return false
	}
	switch n.Type {
	case "string", "number", "true", "false", "null":
		return true
	case "template_string":
		return firstOfType(n, "template_substitution") == nil
	case "unary_expression":
		k := n.NamedKids()
		return len(k) == 1 && literalNode(k[0])
	}
	return false
}
