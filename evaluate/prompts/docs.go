package prompts

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/apidoc"
	"sccg/evaluate/retrieve"
	"sccg/internal/route"
	"sccg/release"
	"sccg/store"
)

// Doc is the documentation of one endpoint, as a prompt gives it.
type Doc = apidoc.Endpoint

// Param is one documented parameter.
type Param = apidoc.Param

// docKey names the endpoint a doc documents: method, host and route template
// with its holes unnamed, so "/a/{id}" and "/a/{name}" are the same endpoint.
func docKey(d Doc) string {
	return strings.ToUpper(d.Method) + " " + strings.ToLower(d.Host) + " " + templateShape(d.Route)
}

// templateShape is a route template with its {holes} unnamed and no trailing slash.
func templateShape(r string) string {
	r = route.NormalizePath(r)
	var b strings.Builder
	for {
		open := strings.IndexByte(r, '{')
		if open < 0 {
			break
		}
		closing := strings.IndexByte(r[open:], '}')
		if closing < 0 {
			break
		}
		b.WriteString(r[:open] + "{}")
		r = r[open+closing+1:]
	}
	b.WriteString(r)
	return b.String()
}

// Documented reports whether a record's api_metadata documents its gold endpoint:
// a built record says so in endpoint_source; a published one names the endpoint
// (endpoint_id or endpoint_name) and where it is (a route or a URL).
func Documented(r release.Record) bool {
	m := r.APIMetadata
	if raw, ok := m.Extra["endpoint_source"]; ok {
		var src string
		if json.Unmarshal(raw, &src) == nil {
			return src == "documented" && (m.Route != "" || m.URL != "")
		}
	}
	return (m.EndpointID != "" || m.EndpointName != "") && (m.Route != "" || m.URL != "")
}

// RecordDoc is the documentation a record's api_metadata gives of its gold
// endpoint; ok is false when the record documents none.
func RecordDoc(r release.Record) (Doc, bool) {
	if !Documented(r) {
		return Doc{}, false
	}
	m := r.APIMetadata
	d := Doc{Key: m.EndpointID, API: r.APIName, Host: strings.ToLower(strings.TrimSpace(r.APIHost)), URL: m.URL,
		Method: strings.ToUpper(strings.TrimSpace(m.Method)), Route: m.Route, Name: m.EndpointName}
	if d.Method == "" {
		d.Method = "GET"
	}
	if strings.Contains(d.Route, "://") {
		// a whole URL recorded as the route: the URL says where the endpoint is
		if u, err := url.Parse(strings.TrimPrefix(d.Route, "/")); err == nil && u.Host != "" {
			if d.URL == "" {
				d.URL = u.String()
			}
			d.Route = u.Path
		}
	}
	if d.Host == "" {
		if u, err := url.Parse(d.CallURL()); err == nil {
			d.Host = strings.ToLower(u.Hostname())
		}
	}
	if len(m.Headers) > 0 {
		d.Headers = map[string]string{}
		for k, v := range m.Headers {
			d.Headers[k] = v
		}
	}
	for _, part := range []struct {
		raw json.RawMessage
		loc string
	}{{m.Params, "query"}, {m.PathParams, "path"}, {m.HeaderParams, "header"}} {
		d.Params = append(d.Params, recordParams(part.raw, part.loc)...)
	}
	if len(m.Payload) > 0 && string(m.Payload) != "null" {
		var obj map[string]json.RawMessage
		if json.Unmarshal(m.Payload, &obj) == nil {
			d.Body = string(m.Payload)
		} else {
			var s string
			if json.Unmarshal(m.Payload, &s) == nil {
				d.Body = s
			}
		}
	}
	return d, true
}

// recordParams reads a published parameter list: names, or objects with a name and
// optionally type, required, description and example.
func recordParams(raw json.RawMessage, loc string) []Param {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []Param
	for _, it := range list {
		var name string
		if json.Unmarshal(it, &name) == nil {
			if name != "" {
				out = append(out, Param{Name: name, Location: loc})
			}
			continue
		}
		var p struct {
			Name        string `json:"name"`
			Type        string `json:"type"`
			Required    bool   `json:"required"`
			Description string `json:"description"`
			Example     any    `json:"example"`
			Default     any    `json:"default"`
			In          string `json:"in"`
			Location    string `json:"location"`
		}
		if json.Unmarshal(it, &p) != nil || p.Name == "" {
			continue
		}
		q := Param{Name: p.Name, Location: loc, Type: p.Type, Required: p.Required, Description: p.Description}
		if l := firstNonEmpty(p.Location, p.In); l != "" {
			q.Location = l
		}
		if p.Example != nil {
			q.Example = scalar(p.Example)
		} else if p.Default != nil {
			q.Example = scalar(p.Default)
		}
		out = append(out, q)
	}
	return out
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// RetrievedDoc is the doc of an endpoint document a retriever returned: what the
// RAG prompt gives of it (no URL, headers or examples: the corpus has none).
func RetrievedDoc(d *retrieve.Document) Doc {
	out := Doc{Key: d.Key, API: d.API, Host: d.Host, Method: d.Method, Route: d.Route, Name: d.Name, Description: d.Description}
	for _, p := range d.Params {
		out.Params = append(out.Params, Param{Name: p.Name, Location: cmp.Or(p.Location, "query"), Type: p.Type, Required: p.Required,
			Description: p.Description})
	}
	return out
}

// StoreDocs turns a documented API's endpoints (current version) into docs.
func StoreDocs(api store.API, eps []store.Endpoint) []Doc {
	name := firstNonEmpty(api.Title, api.Slug)
	var out []Doc
	for _, ep := range eps {
		if !ep.IsCurrent {
			continue
		}
		host := strings.ToLower(firstNonEmpty(ep.Host, api.Host))
		d := Doc{Key: ep.Key, API: name, Host: host, Method: strings.ToUpper(ep.Method), Route: ep.Route, Name: ep.Name,
			Description: ep.Description, Body: ep.BodyExample}
		if host != "" {
			d.URL = "https://" + host + ep.Route
		}
		if strings.HasSuffix(host, ".rapidapi.com") {
			d.Headers = map[string]string{"x-rapidapi-host": host}
		}
		for _, p := range ep.Params {
			d.Params = append(d.Params, Param{Name: p.Name, Location: p.Location, Type: p.Type, Required: p.Required,
				Description: p.Description, Example: firstNonEmpty(p.Example, p.Default)})
		}
		out = append(out, d)
	}
	return out
}

// Catalog is the documentation prompts draw on: endpoint docs by host. Built from
// the store (a benchmark built here), from documentation files (an imported one), or
// from the benchmark's own records.
type Catalog struct {
	docs   []Doc
	byHost map[string][]int
	seen   map[string]bool
	// Source says where the docs came from (store, docs, records).
	Source string
}

// NewCatalog indexes docs; an endpoint documented twice keeps its first doc.
func NewCatalog(source string, docs []Doc) *Catalog {
	c := &Catalog{byHost: map[string][]int{}, seen: map[string]bool{}, Source: source}
	c.Add(docs...)
	return c
}

// Add indexes more docs.
func (c *Catalog) Add(docs ...Doc) {
	for _, d := range docs {
		if d.Host == "" || c.seen[docKey(d)] {
			continue
		}
		c.seen[docKey(d)] = true
		c.byHost[d.Host] = append(c.byHost[d.Host], len(c.docs))
		c.docs = append(c.docs, d)
	}
}

// Docs lists every doc, in the order they were added.
func (c *Catalog) Docs() []Doc { return c.docs }

// Len is how many endpoints the catalog documents.
func (c *Catalog) Len() int { return len(c.docs) }

// OnHost lists the docs of the endpoints served by host.
func (c *Catalog) OnHost(host string) []Doc {
	var out []Doc
	for _, i := range c.byHost[strings.ToLower(host)] {
		out = append(out, c.docs[i])
	}
	return out
}

// Gold finds the doc of a record's gold endpoint: an endpoint on one of its hosts
// with its method whose route is the gold route.
func (c *Catalog) Gold(r release.Record) (Doc, bool) {
	if c == nil {
		return Doc{}, false
	}
	t := evaluate.TruthOf(r)
	if !t.HasEndpoint() {
		return Doc{}, false
	}
	want := templateShape(t.Route)
	rt := route.Compile(t.Route)
	var loose *Doc
	for _, h := range t.Hosts {
		for _, i := range c.byHost[h] {
			d := c.docs[i]
			if !strings.EqualFold(d.Method, t.Method) {
				continue
			}
			if templateShape(d.Route) == want {
				return d, true
			}
			if loose == nil && rt.Match(d.Route) {
				loose = &c.docs[i]
			}
		}
	}
	if loose != nil {
		return *loose, true
	}
	return Doc{}, false
}

// CatalogFromStore reads the documentation of every API in the store.
func CatalogFromStore(ctx context.Context, st *store.Store) (*Catalog, error) {
	apis, err := st.APIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("documentation from the store: %w", err)
	}
	c := NewCatalog(retrieve.SourceStore, nil)
	for _, a := range apis {
		eps, err := st.Endpoints(ctx, a.ID)
		if err != nil {
			return nil, fmt.Errorf("documentation from the store: %w", err)
		}
		c.Add(StoreDocs(a, eps)...)
	}
	return c, nil
}

// CatalogFromRecords collects the documented gold endpoints of records.
func CatalogFromRecords(recs []release.Record) *Catalog {
	c := NewCatalog(retrieve.SourceBench, nil)
	sorted := append([]release.Record(nil), recs...)
	slices.SortStableFunc(sorted, func(a, b release.Record) int { return cmp.Compare(a.SampleID, b.SampleID) })
	for _, r := range sorted {
		if d, ok := RecordDoc(r); ok {
			c.Add(d)
		}
	}
	return c
}
