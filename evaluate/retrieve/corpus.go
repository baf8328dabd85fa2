package retrieve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/apidoc"
	"sccg/internal/route"
	"sccg/release"
	"sccg/store"
)

// Corpus sources: where a corpus's documents came from.
const (
	SourceStore = "store" // the endpoints the store's crawl saved
	SourceDocs  = "docs"  // OpenAPI / ToolBench files (--docs), read by the crawl package
	SourceBench = "bench" // the api_metadata of the benchmark's records, when nothing else exists
)

// Document is one documented endpoint, the unit a retriever returns: its ID names
// it as "METHOD host/route", e.g. "GET weather.p.rapidapi.com/forecast/{city}".
type Document = apidoc.Endpoint

// Param is one documented parameter of an endpoint.
type Param = apidoc.Param

// DocID is the ID of the endpoint METHOD host route.
func DocID(method, host, route string) string {
	return strings.ToUpper(method) + " " + strings.ToLower(host) + route
}

// Corpus is the set of endpoint documents retrieval searches, in a stable order
// (by host, route and method).
type Corpus struct {
	Source string     `json:"source"` // SourceStore, SourceDocs or SourceBench
	Docs   []Document `json:"-"`
	// Problems are inputs that could not be used (an unreadable documentation
	// file, say), each naming the input and why; the corpus is built without them.
	Problems []string `json:"problems,omitempty"`

	byID   map[string]int
	byHost map[string][]int // document indices by host, in corpus order
	routes []*route.Route   // compiled route template by document
}

// ErrEmptyCorpus is returned when a source yields no endpoint document.
var ErrEmptyCorpus = errors.New("no endpoint documents")

// newCorpus sorts the documents, drops repeated IDs (keeping the first, and filling
// its blank fields from the repeats) and indexes them.
func newCorpus(source string, docs []Document, problems []string) (*Corpus, error) {
	c := &Corpus{Source: source, Problems: problems, byID: map[string]int{}}
	for _, d := range docs {
		if d.Host == "" || d.Route == "" {
			continue
		}
		d.Method = strings.ToUpper(d.Method)
		if d.Method == "" {
			d.Method = "GET"
		}
		d.Host = strings.ToLower(d.Host)
		d.ID = DocID(d.Method, d.Host, d.Route)
		if i, dup := c.byID[d.ID]; dup {
			fillBlanks(&c.Docs[i], d)
			continue
		}
		c.byID[d.ID] = len(c.Docs)
		c.Docs = append(c.Docs, d)
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("corpus from %s: %w", source, ErrEmptyCorpus)
	}
	slices.SortStableFunc(c.Docs, func(a, b Document) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Route, b.Route), cmp.Compare(a.Method, b.Method))
	})
	c.byHost = map[string][]int{}
	c.routes = make([]*route.Route, len(c.Docs))
	for i, d := range c.Docs {
		c.byID[d.ID] = i
		c.byHost[d.Host] = append(c.byHost[d.Host], i)
		c.routes[i] = route.Compile(d.Route)
	}
	return c, nil
}

func fillBlanks(d *Document, o Document) {
	for _, f := range []struct {
		dst *string
		src string
	}{{&d.API, o.API}, {&d.APIDescription, o.APIDescription},
		{&d.Category, o.Category}, {&d.Name, o.Name}, {&d.Description, o.Description}, {&d.Key, o.Key}} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if len(d.Params) == 0 {
		d.Params = o.Params
	}
}

// Lookup returns the index of the document with id.
func (c *Corpus) Lookup(id string) (int, bool) {
	i, ok := c.byID[id]
	return i, ok
}

// Len is the number of documents.
func (c *Corpus) Len() int { return len(c.Docs) }

// Hosts is the number of distinct hosts.
func (c *Corpus) Hosts() int { return len(c.byHost) }

// FromEndpoints builds a corpus of the given endpoints; apis (by id) supply the API
// title, description and category; problems are kept with it. Endpoints
// read from documentation files come this way too: the evaluator imports no builder
// stage, so the caller (the CLI) reads --docs with the crawl package and passes the
// normalized endpoints with source SourceDocs.
func FromEndpoints(source string, apis []store.API, eps []store.Endpoint, problems ...string) (*Corpus, error) {
	byID := map[int64]*store.API{}
	for i := range apis {
		byID[apis[i].ID] = &apis[i]
	}
	docs := make([]Document, 0, len(eps))
	for _, e := range eps {
		d := endpointDoc(e)
		if a := byID[e.APIID]; a != nil {
			d.API, d.APIDescription, d.Category = firstNonEmpty(a.Title, a.Slug), a.Description, a.Category
		}
		docs = append(docs, d)
	}
	return newCorpus(source, docs, problems)
}

func endpointDoc(e store.Endpoint) Document {
	d := Document{Host: e.Host, Method: e.Method, Route: e.Route, Name: e.Name, Description: e.Description, Key: e.Key}
	for _, p := range e.Params {
		d.Params = append(d.Params, Param{Name: p.Name, Location: p.Location, Type: p.Type, Required: p.Required, Description: p.Description})
	}
	return d
}

// FromStore builds the corpus of the current version of every API in the store.
// It wraps ErrEmptyCorpus when the store has no endpoints.
func FromStore(ctx context.Context, s *store.Store) (*Corpus, error) {
	apis, err := s.APIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("corpus from store: %w", err)
	}
	eps, err := s.CurrentEndpoints(ctx)
	if err != nil {
		return nil, fmt.Errorf("corpus from store: %w", err)
	}
	return FromEndpoints(SourceStore, apis, eps)
}

// FromRecords builds a corpus from the benchmark itself, for when no documentation
// is at hand: one document per distinct endpoint (method, host, route) of the
// records' api_metadata, with the API name, the endpoint name and the documented
// parameters (or, without them, the parameter names observed in the code).
func FromRecords(recs []release.Record) (*Corpus, error) {
	docs := make([]Document, 0, len(recs))
	for i := range recs {
		r := &recs[i]
		t := evaluate.TruthOf(*r)
		if !t.HasEndpoint() || len(t.Hosts) == 0 {
			continue
		}
		m := r.APIMetadata
		d := Document{API: r.APIName, Host: t.Hosts[0], Method: t.Method, Route: t.Route, Name: m.EndpointName, Key: m.EndpointID}
		described := map[string]Param{}
		for _, raw := range []json.RawMessage{m.Params, m.PathParams, m.Payload} {
			for _, p := range describedParams(raw) {
				described[p.Name] = p
			}
		}
		for _, name := range t.Params {
			p, ok := described[name]
			if !ok {
				p = Param{Name: name}
			}
			d.Params = append(d.Params, p)
		}
		docs = append(docs, d)
	}
	return newCorpus(SourceBench, docs, nil)
}

// describedParams reads the documented parameter objects of a record's params list
// (name, type, required, description); other shapes yield none.
func describedParams(raw json.RawMessage) []Param {
	var list []struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		In          string `json:"in"`
		Location    string `json:"location"`
		Required    bool   `json:"required"`
		Description string `json:"description"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []Param
	for _, p := range list {
		if p.Name != "" {
			out = append(out, Param{Name: p.Name, Location: firstNonEmpty(p.In, p.Location), Type: p.Type, Required: p.Required, Description: p.Description})
		}
	}
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
