package lang

import (
	"net/url"
	"regexp"
	"strings"
)

// URLParts are the pieces of a URL that may hold {name} placeholders, as SplitURL
// reads them.
type URLParts struct {
	Scheme, Authority, Host, Path, Query string
}

// SplitURL splits a (possibly templated) URL without rejecting placeholders: every
// frontend reads a resolved URL into Call.Scheme, Host, Path and Query with it, so
// align sees the same evidence whatever the language.
func SplitURL(s string) URLParts {
	var u URLParts
	rest := strings.TrimSpace(s)
	if i := strings.Index(rest, "://"); i > 0 && !strings.ContainsAny(rest[:i], "/{}?") {
		u.Scheme = strings.ToLower(rest[:i])
		rest = rest[i+3:]
		j := strings.IndexAny(rest, "/?#")
		if j < 0 {
			j = len(rest)
		}
		u.Authority = rest[:j]
		rest = rest[j:]
		// "https://" + HOST + path: the host ends where an unknown path begins
		if k := strings.Index(u.Authority, "{"); k > 0 && strings.Contains(u.Authority[:k], ".") && !strings.Contains(u.Authority[:k], "@") {
			tail := u.Authority[k:] + rest
			if strings.Count(tail, "{") == 1 && strings.HasSuffix(tail, "}") {
				tail = "" // the whole path is unknown: no route evidence
			} else {
				tail = "/" + tail
			}
			rest = tail
			u.Authority = u.Authority[:k]
		}
		h := u.Authority
		if k := strings.LastIndex(h, "@"); k >= 0 {
			h = h[k+1:]
		}
		if k := strings.LastIndex(h, ":"); k >= 0 && !strings.Contains(h[k:], "}") {
			h = h[:k]
		}
		if !strings.ContainsAny(h, "{}") {
			u.Host = strings.ToLower(h)
		}
	} else if strings.HasPrefix(rest, "{") {
		// {BASE_URL}/path: the base is unknown, the path still tells the route
		if k := strings.Index(rest, "}"); k > 0 {
			rest = rest[k+1:]
		}
		if !strings.HasPrefix(rest, "/") {
			rest = ""
		}
	} else if !strings.HasPrefix(rest, "/") {
		// "host.p.rapidapi.com/path" without a scheme
		j := strings.IndexAny(rest, "/?#")
		if j < 0 {
			j = len(rest)
		}
		if h := rest[:j]; strings.Contains(h, ".") && !strings.ContainsAny(h, "{} ") {
			u.Authority, u.Host = h, strings.ToLower(h)
			rest = rest[j:]
		} else {
			rest = ""
		}
	}
	if i := strings.Index(rest, "#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.Index(rest, "?"); i >= 0 {
		u.Query = rest[i+1:]
		rest = rest[:i]
	}
	u.Path = rest
	return u
}

// SetURL records a resolved URL on c (URL, URLResolved and its parts); a URL that
// is nothing but one placeholder says nothing and is left out.
func (c *Call) SetURL(s string, complete bool) {
	if s == "" || s == "{param}" || (strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") && strings.Count(s, "{") == 1) {
		return
	}
	c.URL = s
	c.URLResolved = complete
	p := SplitURL(s)
	c.Scheme, c.Host, c.Path, c.Query = p.Scheme, p.Host, p.Path, p.Query
}

// SetHeader records one header the call sends: its literal value when complete,
// else "" with its source text in HeaderExprs; x-rapidapi-host and x-rapidapi-key
// are noted whatever their case.
func (c *Call) SetHeader(key, value string, complete bool, expr string) {
	if c.Headers == nil {
		c.Headers = map[string]string{}
	}
	if complete {
		c.Headers[key] = value
		delete(c.HeaderExprs, key)
	} else {
		c.Headers[key] = ""
		if c.HeaderExprs == nil {
			c.HeaderExprs = map[string]string{}
		}
		if expr != "" {
			c.HeaderExprs[key] = expr
		}
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "x-rapidapi-host":
		c.HasRapidAPIHost = true
		if complete {
			c.RapidAPIHost = value
		}
	case "x-rapidapi-key":
		c.HasRapidAPIKey = true
		if complete {
			c.RapidAPIKey = value
		}
	}
}

// HostFromRapidAPI makes the literal x-rapidapi-host header the call's Host when
// its URL's host could not be resolved.
func (c *Call) HostFromRapidAPI() {
	if c.Host == "" && c.RapidAPIHost != "" && !strings.ContainsAny(c.RapidAPIHost, "{} /") {
		c.Host = strings.ToLower(strings.TrimSpace(c.RapidAPIHost))
	}
}

// Placeholders matches the {name} placeholders of a resolved URL.
var Placeholders = regexp.MustCompile(`\{([^{}]*)\}`)

// URLParams are the placeholders of path (path parameters) and the parameters of
// query (with their literal values), in URL order.
func URLParams(path, query string) []CallParam {
	var out []CallParam
	for _, ph := range Placeholders.FindAllStringSubmatch(path, -1) {
		out = append(out, CallParam{Name: ph[1], Location: LocPath})
	}
	if query == "" {
		return out
	}
	for _, kvs := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kvs, "=")
		if k == "" {
			continue
		}
		p := CallParam{Name: k, Location: LocQuery}
		if ph := Placeholders.FindStringSubmatch(v); ph == nil {
			if uv, err := url.QueryUnescape(v); err == nil {
				v = uv
			}
			p.Example, p.Literal = v, true
		}
		out = append(out, p)
	}
	return out
}

// OrdinaryHeader reports a header that is not an API parameter (the RapidAPI
// credentials, content negotiation, the client's identity).
func OrdinaryHeader(k string) bool {
	switch strings.ToLower(k) {
	case "x-rapidapi-host", "x-rapidapi-key", "content-type", "accept", "user-agent", "accept-encoding",
		"connection", "cache-control", "accept-language":
		return true
	}
	return false
}

// DedupParams keeps the last occurrence of each (location, name), in first-seen
// order.
func DedupParams(ps []CallParam) []CallParam {
	idx := map[string]int{}
	var out []CallParam
	for _, p := range ps {
		k := p.Location + "\x00" + p.Name
		if i, ok := idx[k]; ok {
			out[i] = p
			continue
		}
		idx[k] = len(out)
		out = append(out, p)
	}
	return out
}
