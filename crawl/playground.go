package crawl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sccg/store"
)

// Errors ParsePlayground returns for pages that cannot give an API; callers record
// them as decisions and go on.
var (
	// ErrNoAPIData: the page carries no dehydrated getApiBySlug entry (a retired or
	// private API, an error page served with 200).
	ErrNoAPIData = errors.New("no API data in page")
	// ErrTruncated: the page or its flight data stops in the middle of a record.
	ErrTruncated = errors.New("truncated page")
	// ErrNoEndpoints: the API entry is there but no getApiVersion entry is.
	ErrNoEndpoints = errors.New("no API version data in page")
)

// pushMarker starts every Next.js flight chunk in a page.
var pushMarker = []byte("self.__next_f.push(")

// FlightStream extracts the Next.js flight data of a page: the string payloads of its
// self.__next_f.push([1, "…"]) chunks, JavaScript-unescaped and concatenated in
// order (one record may span several chunks). A page that ends inside a chunk gives
// ErrTruncated.
func FlightStream(page []byte) ([]byte, error) {
	out := make([]byte, 0, len(page))
	rest := page
	for {
		i := bytes.Index(rest, pushMarker)
		if i < 0 {
			return out, nil
		}
		rest = rest[i+len(pushMarker):]
		// [1,"…"] — anything else (the bootstrap [0], form state [2,…]) is skipped.
		j := 0
		for j < len(rest) && isSpace(rest[j]) {
			j++
		}
		if j >= len(rest) {
			return out, fmt.Errorf("%w: page ends inside a flight chunk", ErrTruncated)
		}
		if rest[j] != '[' {
			continue
		}
		j++
		for j < len(rest) && isSpace(rest[j]) {
			j++
		}
		if j >= len(rest) || rest[j] != '1' {
			continue
		}
		j++
		for j < len(rest) && (isSpace(rest[j]) || rest[j] == ',') {
			j++
		}
		if j >= len(rest) {
			return out, fmt.Errorf("%w: page ends inside a flight chunk", ErrTruncated)
		}
		if q := rest[j]; q != '"' && q != '\'' {
			continue
		}
		var n int
		var err error
		out, n, err = appendJSString(out, rest[j:])
		if err != nil {
			return out, err
		}
		rest = rest[j+n:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// appendJSString decodes the JavaScript string literal at the start of s (quoted
// with " or ') onto dst and reports how many bytes of s it used.
func appendJSString(dst, s []byte) ([]byte, int, error) {
	quote := s[0]
	i := 1
	for {
		// Copy the run of plain bytes at once.
		j := i
		for j < len(s) && s[j] != quote && s[j] != '\\' {
			j++
		}
		dst = append(dst, s[i:j]...)
		i = j
		if i >= len(s) {
			return dst, i, fmt.Errorf("%w: page ends inside a flight chunk", ErrTruncated)
		}
		if s[i] == quote {
			return dst, i + 1, nil
		}
		// An escape.
		if i+1 >= len(s) {
			return dst, i, fmt.Errorf("%w: page ends inside an escape", ErrTruncated)
		}
		c := s[i+1]
		i += 2
		switch c {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'v':
			dst = append(dst, '\v')
		case '0':
			dst = append(dst, 0)
		case '\n': // line continuation
		case 'x':
			if i+2 > len(s) {
				return dst, i, fmt.Errorf("%w: page ends inside an escape", ErrTruncated)
			}
			v, err := strconv.ParseUint(string(s[i:i+2]), 16, 8)
			if err != nil {
				return dst, i, fmt.Errorf("bad \\x escape in flight chunk: %q", s[i:i+2])
			}
			dst = utf8.AppendRune(dst, rune(v))
			i += 2
		case 'u':
			r, n, err := jsUnicodeEscape(s[i:])
			if err != nil {
				return dst, i, err
			}
			i += n
			if r >= 0xD800 && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if lo, n2, err := jsUnicodeEscape(s[i+2:]); err == nil && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 2 + n2
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // \" \' \\ \/ and any other char stand for themselves
			dst = append(dst, c)
		}
	}
}

// jsUnicodeEscape decodes the XXXX or {X…} after \u.
func jsUnicodeEscape(s []byte) (rune, int, error) {
	if len(s) > 0 && s[0] == '{' {
		end := bytes.IndexByte(s, '}')
		if end < 0 {
			return 0, 0, fmt.Errorf("%w: page ends inside an escape", ErrTruncated)
		}
		v, err := strconv.ParseUint(string(s[1:end]), 16, 32)
		if err != nil {
			return 0, 0, fmt.Errorf("bad \\u{} escape in flight chunk: %q", s[:end+1])
		}
		return rune(v), end + 1, nil
	}
	if len(s) < 4 {
		return 0, 0, fmt.Errorf("%w: page ends inside an escape", ErrTruncated)
	}
	v, err := strconv.ParseUint(string(s[:4]), 16, 16)
	if err != nil {
		return 0, 0, fmt.Errorf("bad \\u escape in flight chunk: %q", s[:4])
	}
	return rune(v), 4, nil
}

// dehydrated is one React-Query cache entry serialized into the page.
type dehydrated struct {
	QueryKey []json.RawMessage `json:"queryKey"`
	State    struct {
		Data json.RawMessage `json:"data"`
	} `json:"state"`
}

var dehydratedMarker = []byte(`"dehydratedAt"`)

// Queries returns the dehydrated React-Query entries of a flight stream by query
// name (the first element of queryKey), in stream order.
func Queries(stream []byte) (map[string][]json.RawMessage, error) {
	out := map[string][]json.RawMessage{}
	pos := 0
	for {
		i := bytes.Index(stream[pos:], dehydratedMarker)
		if i < 0 {
			return out, nil
		}
		i += pos
		// The entry object opens just before its first key.
		start := i - 1
		for start >= 0 && isSpace(stream[start]) {
			start--
		}
		if start < 0 || stream[start] != '{' {
			pos = i + len(dehydratedMarker)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(stream[start:]))
		var q dehydrated
		if err := dec.Decode(&q); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return out, fmt.Errorf("%w: flight data ends inside a query entry", ErrTruncated)
			}
			return out, fmt.Errorf("decode query entry at byte %d: %w", start, err)
		}
		pos = start + int(dec.InputOffset())
		if len(q.QueryKey) == 0 {
			continue
		}
		var name string
		if err := json.Unmarshal(q.QueryKey[0], &name); err != nil {
			continue
		}
		out[name] = append(out[name], q.State.Data)
	}
}

// hubAPI is the data of a getApiBySlug entry.
type hubAPI struct {
	ID              string          `json:"id"`
	Name            string          `json:"name"`
	Slug            string          `json:"slug"`
	Title           string          `json:"title"`
	Description     string          `json:"description"`
	LongDescription string          `json:"longDescription"`
	Category        json.RawMessage `json:"category"`
	CategoryName    string          `json:"categoryName"`
	User            struct {
		Username  string `json:"username"`
		Slugified string `json:"slugifiedName"`
	} `json:"user"`
	Pricing string `json:"pricing"`
	Score   struct {
		Popularity  *float64 `json:"popularityScore"`
		Latency     *float64 `json:"avgLatency"`
		SuccessRate *float64 `json:"avgSuccessRate"`
		ServiceLvl  *float64 `json:"avgServiceLevel"`
	} `json:"score"`
	Subscribers    *int64 `json:"subscribersCount"`
	UpdatedAt      string `json:"updatedAt"`
	CurrentVersion struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"currentVersion"`
	Versions []struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Current bool   `json:"current"`
	} `json:"versions"`
	Tags       []string `json:"tags"`
	WebsiteURL string   `json:"websiteUrl"`
}

// hubVersion is the data of a getApiVersion entry.
type hubVersion struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	Current   *bool         `json:"current"`
	Endpoints []hubEndpoint `json:"endpoints"`
	PublicDNS []struct {
		Address  string `json:"address"`
		IsPublic *bool  `json:"isPublic"`
	} `json:"publicdns"`
}

type hubEndpoint struct {
	ID              string          `json:"id"`
	Name            string          `json:"name"`
	Route           string          `json:"route"`
	Method          string          `json:"method"`
	Description     string          `json:"description"`
	Params          json.RawMessage `json:"params"`
	RequestPayloads json.RawMessage `json:"requestPayloads"`
}

// hubParam is one documented parameter in any of the hub's shapes.
type hubParam struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	ParamType   string          `json:"paramType"`
	In          string          `json:"in"`
	Required    *bool           `json:"required"`
	Condition   string          `json:"condition"`
	Description string          `json:"description"`
	Value       json.RawMessage `json:"value"`
	Default     json.RawMessage `json:"default"`
}

// ParsePlayground reads a RapidAPI playground page: its flight data, the dehydrated
// getApiBySlug entry (the API) and getApiVersion entries (endpoints and the
// publicdns host of each version). pageURL is recorded as the API's URL. Pages with
// no API give ErrNoAPIData, cut pages ErrTruncated; endpoints the parser could only
// partly read come back as Problems.
func ParsePlayground(page []byte, pageURL string) (*Doc, error) {
	stream, err := FlightStream(page)
	if err != nil {
		return nil, err
	}
	if len(stream) == 0 {
		if !bytes.Contains(page, []byte("</html>")) && !bytes.Contains(page, []byte("</body>")) {
			return nil, fmt.Errorf("%w: no flight data and no closing tags", ErrTruncated)
		}
		return nil, fmt.Errorf("%w: no flight chunks", ErrNoAPIData)
	}
	qs, err := Queries(stream)
	if err != nil {
		return nil, err
	}
	apis := qs["getApiBySlug"]
	if len(apis) == 0 {
		return nil, ErrNoAPIData
	}
	var ha hubAPI
	if err := json.Unmarshal(apis[0], &ha); err != nil {
		return nil, fmt.Errorf("decode getApiBySlug: %w", err)
	}
	if ha.Slug == "" && ha.Name == "" {
		return nil, fmt.Errorf("%w: getApiBySlug has no slug", ErrNoAPIData)
	}
	doc := &Doc{API: store.API{
		Source: "rapidapi", Owner: ha.User.Username, Slug: firstNonEmpty(ha.Slug, ha.Name),
		Title: firstNonEmpty(ha.Title, ha.Name), Category: categoryName(ha.Category, ha.CategoryName),
		Description: ha.Description, Pricing: ha.Pricing, Popularity: ha.Score.Popularity,
		Subscribers: ha.Subscribers, LatencyMS: ha.Score.Latency, SuccessRate: ha.Score.SuccessRate,
		Version: ha.CurrentVersion.Name, URL: pageURL,
	}}
	extra := map[string]any{}
	if ha.ID != "" {
		extra["rapidapi_id"] = ha.ID
	}
	if ha.UpdatedAt != "" {
		extra["updated_at"] = ha.UpdatedAt
	}
	if len(ha.Tags) > 0 {
		extra["tags"] = ha.Tags
	}
	if ha.Score.ServiceLvl != nil {
		extra["service_level"] = *ha.Score.ServiceLvl
	}
	if len(extra) > 0 {
		doc.API.Extra = extra
	}
	versionNames := map[string]string{}
	for _, v := range ha.Versions {
		versionNames[v.ID] = v.Name
		if v.Current && doc.API.Version == "" {
			doc.API.Version = v.Name
		}
	}
	versions := qs["getApiVersion"]
	if len(versions) == 0 {
		return nil, ErrNoEndpoints
	}
	for _, raw := range versions {
		var hv hubVersion
		if err := json.Unmarshal(raw, &hv); err != nil {
			return nil, fmt.Errorf("decode getApiVersion: %w", err)
		}
		name := firstNonEmpty(hv.Name, versionNames[hv.ID], hv.ID)
		current := (hv.Current != nil && *hv.Current) || (hv.ID != "" && hv.ID == ha.CurrentVersion.ID)
		if current && doc.API.Version == "" {
			doc.API.Version = name
		}
		host := ""
		for _, d := range hv.PublicDNS {
			if d.IsPublic == nil || *d.IsPublic {
				host = d.Address
				break
			}
		}
		if host == "" {
			doc.Problems = append(doc.Problems, Problem{Subject: "version " + name, Reason: "no public DNS entry"})
		}
		if current && doc.API.Host == "" {
			doc.API.Host = host
		}
		for _, he := range hv.Endpoints {
			ep := store.Endpoint{Version: name, IsCurrent: current, Host: host, Key: he.ID, Name: he.Name,
				Description: he.Description, Method: he.Method, Route: he.Route}
			subject := name + " " + he.Method + " " + he.Route
			if strings.TrimSpace(he.Route) == "" {
				doc.Problems = append(doc.Problems, Problem{Subject: subject, Reason: "endpoint without route dropped"})
				continue
			}
			ps, err := hubParams(he.Params)
			if err != nil {
				doc.Problems = append(doc.Problems, Problem{Subject: subject, Reason: err.Error() + "; endpoint kept without its parameters"})
			}
			ep.Params = ps
			body, err := hubPayloads(&ep, he.RequestPayloads)
			if err != nil {
				doc.Problems = append(doc.Problems, Problem{Subject: subject, Reason: err.Error() + "; request body dropped"})
			}
			ep.Params = append(ep.Params, body...)
			doc.Endpoints = append(doc.Endpoints, ep)
		}
	}
	return doc, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// categoryName reads a category given as a string or as {"name": …}.
func categoryName(raw json.RawMessage, fallback string) string {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	var o struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Name != "" {
		return o.Name
	}
	return fallback
}

// hubParams reads an endpoint's params in the hub's shapes: a JSON string holding
// one of the other shapes; an object of lists by location ({"query": […], "path":
// […], "header": […]}); an object with one "parameters" list; or a bare list whose
// items say where they go ("in" / "paramType"). null and "" mean none.
func hubParams(raw json.RawMessage) ([]store.Param, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		if t := strings.TrimSpace(s); t[0] == '"' {
			return nil, errors.New("unknown parameter shape: doubly quoted string")
		}
		return hubParams(json.RawMessage(s))
	case '[':
		var list []hubParam
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("unknown parameter shape: %w", err)
		}
		return convertParams(list, "query"), nil
	case '{':
		var byLoc map[string]json.RawMessage
		if err := json.Unmarshal(raw, &byLoc); err != nil {
			return nil, fmt.Errorf("unknown parameter shape: %w", err)
		}
		var out []store.Param
		for _, k := range slices.Sorted(maps.Keys(byLoc)) {
			loc := strings.ToLower(k)
			switch loc {
			case "query", "querystring", "path", "header", "headers", "parameters", "params":
			default:
				return nil, fmt.Errorf("unknown parameter shape: key %q", k)
			}
			if loc == "parameters" || loc == "params" || loc == "querystring" {
				loc = "query"
			}
			var list []hubParam
			if err := json.Unmarshal(byLoc[k], &list); err != nil {
				return nil, fmt.Errorf("unknown parameter shape: %s: %w", k, err)
			}
			out = append(out, convertParams(list, loc)...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown parameter shape: %.20s", raw)
}

func convertParams(list []hubParam, loc string) []store.Param {
	out := make([]store.Param, 0, len(list))
	for _, h := range list {
		l := loc
		if h.In != "" {
			l = h.In
		} else if h.ParamType != "" && h.Type == "" {
			h.Type = h.ParamType
		}
		req := strings.EqualFold(h.Condition, "REQUIRED")
		if h.Required != nil {
			req = *h.Required
		}
		out = append(out, store.Param{Name: h.Name, Location: l, Type: h.Type, Required: req,
			Example: jsonScalar(h.Value), Default: jsonScalar(h.Default), Description: h.Description})
	}
	return out
}

// jsonScalar renders a JSON value as the text the store keeps: strings unquoted,
// anything else as compact JSON.
func jsonScalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

type hubPayload struct {
	Name   string          `json:"name"`
	Format string          `json:"format"`
	Body   json.RawMessage `json:"body"`
	Schema *struct {
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	} `json:"schema"`
	Fields []hubParam `json:"fields"`
}

// hubPayloads reads requestPayloads: a JSON body (example and schema properties
// become body parameters) or a form (its fields become form parameters). It sets
// the endpoint's content type and body example.
func hubPayloads(ep *store.Endpoint, raw json.RawMessage) ([]store.Param, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var pays []hubPayload
	if err := json.Unmarshal(raw, &pays); err != nil {
		return nil, fmt.Errorf("unknown request payload shape: %w", err)
	}
	var out []store.Param
	for _, p := range pays {
		switch strings.ToUpper(p.Format) {
		case "JSON", "APPLICATION/JSON", "RAW":
			ep.ContentType = "application/json"
			ep.BodyExample = jsonScalar(p.Body)
			if p.Schema != nil {
				req := map[string]bool{}
				for _, r := range p.Schema.Required {
					req[r] = true
				}
				for _, n := range slices.Sorted(maps.Keys(p.Schema.Properties)) {
					prop := p.Schema.Properties[n]
					out = append(out, store.Param{Name: n, Location: "body", Type: prop.Type, Required: req[n], Description: prop.Description})
				}
			} else if ep.BodyExample != "" {
				var obj map[string]any
				if json.Unmarshal([]byte(ep.BodyExample), &obj) == nil {
					for _, n := range slices.Sorted(maps.Keys(obj)) {
						out = append(out, store.Param{Name: n, Location: "body", Type: jsonType(obj[n])})
					}
				}
			}
		case "FORM_DATA", "MULTIPART/FORM-DATA":
			ep.ContentType = "multipart/form-data"
			out = append(out, convertParams(p.Fields, "form")...)
		case "FORM_URLENCODED", "X-WWW-FORM-URLENCODED", "APPLICATION/X-WWW-FORM-URLENCODED":
			ep.ContentType = "application/x-www-form-urlencoded"
			out = append(out, convertParams(p.Fields, "form")...)
		default:
			return out, fmt.Errorf("unknown request payload format %q", p.Format)
		}
	}
	return out, nil
}

func jsonType(v any) string {
	switch v.(type) {
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "string"
}
