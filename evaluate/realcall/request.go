package realcall

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"sccg/evaluate"
)

// request is a request rebuilt from what the sandbox recorded, ready to send.
type request struct {
	Method string
	URL    *url.URL // as the code built it (before Resolve)
	Host   string   // lower case, no port
	// Header is what is sent; Shown is the same with the credential's value
	// replaced by the name of the variable it comes from.
	Header http.Header
	Shown  map[string]string
	Notes  []string // what the rebuild left out or added, and why
}

// exclusion is why a request is not sent: a reason (one of the Reason constants)
// and what exactly.
type exclusion struct {
	Reason string
	Detail string
}

// credentials are how a service takes the user's key.
type credentials struct {
	key    string   // the value (from the environment); "" when none was given
	env    string   // the variable it came from, shown instead of the value
	header []string // the headers the service documents for it
}

// rapidAPIHost reports whether host is a RapidAPI gateway host, which takes the
// key in X-RapidAPI-Key and the host in X-RapidAPI-Host.
func rapidAPIHost(host string) bool { return strings.HasSuffix(host, ".rapidapi.com") }

// credWords are the words of a header or parameter name that carries a credential.
var credWords = map[string]bool{"key": true, "apikey": true, "token": true, "secret": true, "password": true, "passwd": true,
	"signature": true, "auth": true, "authorization": true, "credential": true, "credentials": true, "cookie": true, "session": true}

// credName reports whether a header or parameter name carries a credential.
func credName(name string) bool {
	for _, w := range words(name) {
		if credWords[w] {
			return true
		}
	}
	return false
}

// hopHeaders are never replayed: the client sets them, or they carry state.
var hopHeaders = map[string]bool{"host": true, "content-length": true, "connection": true, "transfer-encoding": true,
	"te": true, "upgrade": true, "cookie": true, "proxy-authorization": true, "keep-alive": true, "expect": true}

// rebuild turns a captured request into the request to send, or says why it must
// not be sent.
func rebuild(c evaluate.Captured, cred credentials) (*request, *exclusion) {
	m := strings.ToUpper(strings.TrimSpace(c.Method))
	if m != http.MethodGet && m != http.MethodHead {
		return nil, &exclusion{ReasonMethod, m}
	}
	rp := c.Replay
	if rp == nil {
		// results written before sccg eval kept what a real call needs
		if len(c.JSONKeys) > 0 || len(c.BodyKeys) > 0 {
			return nil, &exclusion{ReasonBody, "body fields " + strings.Join(append(c.JSONKeys, c.BodyKeys...), ", ")}
		}
		if len(c.Params) > 0 {
			return nil, &exclusion{ReasonNoValues, "params " + strings.Join(c.Params, ", ")}
		}
		rp = &evaluate.Replay{}
	}
	if rp.Body {
		return nil, &exclusion{ReasonBody, ""}
	}
	raw := strings.TrimSpace(c.URL)
	switch {
	case strings.HasPrefix(raw, "//"):
		raw = "https:" + raw
	case !strings.Contains(raw, "://"):
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return nil, &exclusion{ReasonBadURL, c.URL}
	}
	r := &request{Method: m, Host: strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), Header: http.Header{}, Shown: map[string]string{}}
	if a, err := netip.ParseAddr(r.Host); err == nil && !publicAddr(a) {
		return nil, &exclusion{ReasonPrivate, r.Host}
	}
	// The query: the URL's own, then a string params=, then params= pairs, as the
	// HTTP libraries append them. Credentials in it are left out.
	var pairs [][2]string
	keep := func(q string) {
		for _, part := range strings.Split(q, "&") {
			if part == "" {
				continue
			}
			k, v, _ := strings.Cut(part, "=")
			dk, err1 := url.QueryUnescape(k)
			dv, err2 := url.QueryUnescape(v)
			if err1 != nil || err2 != nil {
				dk, dv = k, v
			}
			pairs = append(pairs, [2]string{dk, dv})
		}
	}
	keep(u.RawQuery)
	keep(strings.TrimPrefix(rp.ParamsRaw, "?"))
	pairs = append(pairs, rp.ParamValues...)
	var q []string
	for _, p := range pairs {
		if credName(p[0]) || p[1] == "<redacted>" {
			r.Notes = append(r.Notes, fmt.Sprintf("query parameter %s left out: a credential", p[0]))
			continue
		}
		q = append(q, url.QueryEscape(p[0])+"="+url.QueryEscape(p[1]))
	}
	u.RawQuery, u.Fragment, u.RawFragment = strings.Join(q, "&"), "", ""
	if w, where := writeVerb(u.Path, pairs); w != "" {
		return nil, &exclusion{ReasonWrite, fmt.Sprintf("%q in %s", w, where)}
	}
	r.URL = u
	var dropped []string // credential headers of the code: the user's key goes in, if any
	for k, v := range c.Headers {
		lk := strings.ToLower(k)
		switch {
		case hopHeaders[lk]:
			r.Notes = append(r.Notes, "header "+k+" left out: the client sets it")
		case lk == "stub" || v == "stub":
			r.Notes = append(r.Notes, "header "+k+" left out: a stub of the sandbox, not a value of the code")
		case v == "<redacted>" || credName(k):
			dropped = append(dropped, k)
		default:
			r.Header.Set(k, v)
			r.Shown[http.CanonicalHeaderKey(k)] = v
		}
	}
	set := func(k, v, shown string) {
		r.Header.Set(k, v)
		r.Shown[http.CanonicalHeaderKey(k)] = shown
	}
	if rapidAPIHost(r.Host) {
		set("X-RapidAPI-Host", r.Host, r.Host)
	}
	if cred.key != "" {
		names := cred.header
		if rapidAPIHost(r.Host) {
			names = append([]string{"X-RapidAPI-Key"}, names...)
		}
		for _, h := range names {
			set(h, cred.key, "$"+cred.env)
		}
		if len(names) == 0 {
			r.Notes = append(r.Notes, "no key sent: the service documents no header for it")
		}
	}
	for _, k := range dropped {
		if r.Header.Get(k) == "" {
			r.Notes = append(r.Notes, "header "+k+" left out: a credential of the code")
		}
	}
	slices.Sort(r.Notes)
	return r, nil
}

// key names the call: where it goes (dest, the base URL Resolve maps the host to,
// or ""), the method, the URL and the headers as shown (the credential by its
// variable's name, never its value).
func (r *request) key(dest string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s %s\n", dest, r.Method, r.URL.String())
	names := make([]string, 0, len(r.Shown))
	for k := range r.Shown {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		fmt.Fprintf(h, "%s: %s\n", k, r.Shown[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// writeWords name an action with a side effect: a route or parameter that names
// one is never called.
var writeWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`delete remove create update send post order pay payment purchase buy sell
		submit cancel add insert put patch upload edit modify register subscribe unsubscribe signup transfer charge
		publish write save reset destroy drop reserve refund withdraw deposit vote approve reject revoke
		archive invite notify set mutate execute exec run trigger deploy import`) {
		writeWords[w] = true
	}
}

var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)
var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// words splits a route segment, parameter name or value into lower-case words
// (at punctuation and camelCase boundaries).
func words(s string) []string {
	s = camel.ReplaceAllString(s, "$1 $2")
	return strings.Fields(nonWord.ReplaceAllString(strings.ToLower(s), " "))
}

// writeVerb returns the first write word in the path or the query pairs (names
// and values), and where it is.
func writeVerb(path string, pairs [][2]string) (word, where string) {
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	for _, w := range words(path) {
		if writeWords[w] {
			return w, "the route " + path
		}
	}
	for _, p := range pairs {
		for i, s := range p {
			for _, w := range words(s) {
				if writeWords[w] {
					if i == 0 {
						return w, "parameter " + p[0]
					}
					return w, "the value of parameter " + p[0]
				}
			}
		}
	}
	return "", ""
}
