package crawl

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
	"golang.org/x/text/unicode/norm"

	"sccg/store"
)

// ErrBadInput marks a file that could not be read as documentation; the crawl
// records it as a decision and goes on.
var ErrBadInput = errors.New("bad input")

// loader reads one documentation file into a document.
type loader func(ctx context.Context, path string) (*Doc, error)

// importFiles crawls every file under the option paths with load, one unit per file.
func (c *crawler) importFiles(ctx context.Context, source string, load loader) error {
	if len(c.o.Paths) == 0 {
		return fmt.Errorf("crawl %s: no paths given", source)
	}
	var files []string
	for _, p := range c.o.Paths {
		fs, err := docFiles(p)
		if err != nil {
			if err := c.bad(ctx, store.Rejected, "file", p, "unreadable path: "+err.Error(), nil); err != nil {
				return err
			}
			continue
		}
		files = append(files, fs...)
	}
	if source == SourceOpenAPI {
		if err := c.rejectOtherFiles(ctx); err != nil {
			return err
		}
	}
	c.sum.Targets += len(files)
	c.start(len(files))
	defer c.prog.Done()
	done, err := c.s.DoneUnits(ctx, Stage)
	if err != nil {
		return err
	}
	had := importedFiles(done, source)
	c.imported = map[string]bool{}
	current := map[string]bool{} // files whose APIs stand: unchanged or imported now
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		unit := fileUnit(source, f)
		if done[unit] {
			c.sum.Skipped++
			current[f] = true
			c.prog.Add(1)
			continue
		}
		if had[f] {
			c.sum.Reimported++
		}
		doc, err := load(ctx, f)
		var rj *Rejection
		if errors.As(err, &rj) {
			if err := c.rejectFile(ctx, c.relName(f), rj); err != nil {
				return err
			}
			c.prog.Add(1)
			continue
		}
		if err != nil {
			reason := strings.TrimPrefix(err.Error(), ErrBadInput.Error()+": ")
			if err := c.bad(ctx, store.Rejected, "file", f, reason, nil); err != nil {
				return err
			}
			c.prog.Add(1)
			continue
		}
		subject := f
		if source == SourceOpenAPI {
			subject = c.relName(f)
			if err := c.uniqueSlug(ctx, doc, subject); err != nil {
				return err
			}
		}
		raw, err := os.ReadFile(f)
		if err == nil {
			err = c.s.Update(ctx, func(tx *store.Tx) error {
				sha, err := tx.PutBlob(ctx, raw)
				doc.API.BlobSHA256 = sha
				return err
			})
		}
		if err != nil {
			return fmt.Errorf("keep %s: %w", f, err)
		}
		if err := c.save(ctx, doc, unit, "file", subject); err != nil {
			return err
		}
		current[f] = true
		c.imported[f] = true
		c.prog.Add(1)
	}
	return c.retire(ctx, source, current)
}

// rejectOtherFiles records the files in the docs folders that are not JSON or
// YAML (a README, a licence) as not descriptions, so that nothing a contributor
// put there is left out without a word.
func (c *crawler) rejectOtherFiles(ctx context.Context) error {
	roots := c.o.Roots
	if len(roots) == 0 {
		roots = c.o.Paths
	}
	for _, root := range roots {
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") && p != root {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || isDocExt(p) {
				return nil
			}
			name := ReadOptions{Root: root}.rel(p)
			c.sum.Targets++
			return c.rejectFile(ctx, name, reject(RejectNotDescription, "%s is not a description: only .json, .yaml and .yml files are read", name))
		})
		if err != nil {
			return fmt.Errorf("docs %s: %w", root, err)
		}
	}
	return nil
}

func isDocExt(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// docFiles lists the JSON and YAML files at path (a file, or a folder walked in
// name order).
func docFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != path {
			return filepath.SkipDir
		}
		if isDocExt(p) && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func extString(m map[string]any, key string) string {
	if m == nil {
		return ""
	}
	switch v := m[key].(type) {
	case string:
		return v
	case json.RawMessage:
		var s string
		json.Unmarshal(v, &s)
		return s
	}
	return ""
}

var slugChars = regexp.MustCompile(`[^a-z0-9]+`)

// Slugify makes a hub-style slug of a title: lower case words joined by dashes,
// accents dropped ("PokéAPI" is "pokeapi").
func Slugify(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return strings.Trim(slugChars.ReplaceAllString(strings.ToLower(b.String()), "-"), "-")
}

func schemaType(s *openapi3.Schema) string {
	if s.Type == nil {
		return "string"
	}
	for _, t := range s.Type.Slice() {
		if t != "null" {
			return t
		}
	}
	return "string"
}

func anyText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// requestBodyParams picks the body's media type (JSON first, then forms) and turns
// its object schema's properties into body or form parameters.
func requestBodyParams(rb *openapi3.RequestBody, params []store.Param) (ct, example string, out []store.Param) {
	out = params
	types := slices.SortedFunc(maps.Keys(rb.Content), func(a, b string) int {
		return cmp.Or(cmp.Compare(mediaRank(a), mediaRank(b)), strings.Compare(a, b))
	})
	if len(types) == 0 {
		return "", "", out
	}
	ct = types[0]
	mt := rb.Content[ct]
	loc := "body"
	if strings.Contains(ct, "form") {
		loc = "form"
	}
	if mt.Example != nil {
		example = anyText(mt.Example)
	}
	if mt.Schema == nil || mt.Schema.Value == nil {
		return ct, example, out
	}
	s := mt.Schema.Value
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	for _, n := range slices.Sorted(maps.Keys(s.Properties)) {
		p := store.Param{Name: n, Location: loc, Required: req[n], Type: "string"}
		if ps := s.Properties[n]; ps != nil && ps.Value != nil {
			p.Type = schemaType(ps.Value)
			p.Description = ps.Value.Description
			p.Default = anyText(ps.Value.Default)
			p.Example = anyText(ps.Value.Example)
		}
		out = append(out, p)
	}
	if example == "" && s.Example != nil {
		example = anyText(s.Example)
	}
	return ct, example, out
}

func mediaRank(ct string) int {
	switch {
	case strings.Contains(ct, "json"):
		return 0
	case strings.Contains(ct, "x-www-form-urlencoded"):
		return 1
	case strings.Contains(ct, "multipart"):
		return 2
	}
	return 3
}

// toolBenchTool is a ToolBench / StableToolBench tool file.
type toolBenchTool struct {
	ToolName         string          `json:"tool_name"`
	StandardizedName string          `json:"standardized_name"`
	Title            string          `json:"title"`
	ToolDescription  string          `json:"tool_description"`
	Host             string          `json:"host"`
	HomeURL          string          `json:"home_url"`
	Pricing          string          `json:"pricing"`
	Category         string          `json:"category"`
	Score            *toolBenchScore `json:"score"`
	APIList          []struct {
		Name        string           `json:"name"`
		URL         string           `json:"url"`
		Description string           `json:"description"`
		Method      string           `json:"method"`
		Required    []toolBenchParam `json:"required_parameters"`
		Optional    []toolBenchParam `json:"optional_parameters"`
		Body        json.RawMessage  `json:"body"`
	} `json:"api_list"`
}

type toolBenchScore struct {
	Popularity  *float64 `json:"popularityScore"`
	Latency     *float64 `json:"avgLatency"`
	SuccessRate *float64 `json:"avgSuccessRate"`
}

type toolBenchParam struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
}

// LoadToolBenchFile reads a ToolBench tool JSON. Owner and slug come from home_url
// (https://rapidapi.com/OWNER/api/SLUG), else the slug from the tool name; the
// category from the file's folder (ToolBench keeps tools/<Category>/<tool>.json)
// unless the file names one. ToolBench does not say where a parameter goes: a
// parameter named in the route is a path parameter, otherwise it is a query
// parameter of GET/DELETE/HEAD endpoints and a body field of the others.
func LoadToolBenchFile(ctx context.Context, path string) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: read: %v", ErrBadInput, err)
	}
	var tb toolBenchTool
	if err := json.Unmarshal(data, &tb); err != nil {
		return nil, fmt.Errorf("%w: invalid ToolBench JSON: %v", ErrBadInput, err)
	}
	if tb.ToolName == "" && tb.StandardizedName == "" {
		return nil, fmt.Errorf("%w: invalid ToolBench JSON: no tool_name", ErrBadInput)
	}
	if len(tb.APIList) == 0 {
		return nil, fmt.Errorf("%w: invalid ToolBench JSON: empty api_list", ErrBadInput)
	}
	owner, slug := "", ""
	if tb.HomeURL != "" {
		owner, slug, _ = ParseAPIRef(tb.HomeURL)
	}
	if slug == "" {
		slug = Slugify(firstNonEmpty(tb.ToolName, tb.StandardizedName))
	}
	host := tb.Host
	category := tb.Category
	if category == "" {
		category = filepath.Base(filepath.Dir(path))
		if category == "." || category == string(filepath.Separator) {
			category = ""
		}
	}
	doc := &Doc{API: store.API{Source: SourceToolBench, Owner: owner, Slug: slug,
		Title: firstNonEmpty(tb.Title, tb.ToolName, tb.StandardizedName), Description: tb.ToolDescription,
		Host: host, Pricing: tb.Pricing, Category: category, URL: path}}
	if tb.Score != nil {
		doc.API.Popularity, doc.API.LatencyMS, doc.API.SuccessRate = tb.Score.Popularity, tb.Score.Latency, tb.Score.SuccessRate
	}
	if tb.StandardizedName != "" {
		doc.API.Extra = map[string]any{"standardized_name": tb.StandardizedName}
	}
	for _, a := range tb.APIList {
		epHost := host
		if strings.Contains(a.URL, "://") {
			if u, err := url.Parse(a.URL); err == nil && u.Host != "" {
				epHost = u.Host
			}
		}
		if doc.API.Host == "" {
			doc.API.Host = epHost
		}
		route, _ := NormalizeRoute(a.URL)
		inRoute := map[string]bool{}
		for _, n := range PathParams(route) {
			inRoute[n] = true
		}
		method := NormalizeMethod(a.Method)
		ep := store.Endpoint{IsCurrent: true, Host: epHost, Name: a.Name, Description: a.Description, Method: method, Route: a.URL}
		for i, group := range [][]toolBenchParam{a.Required, a.Optional} {
			for _, p := range group {
				loc := "query"
				switch {
				case inRoute[p.Name]:
					loc = "path"
				case method != "GET" && method != "DELETE" && method != "HEAD":
					loc = "body"
				}
				if _, known := OpenAPIType(p.Type); !known {
					doc.Problems = append(doc.Problems, Problem{Subject: method + " " + route, Reason: fmt.Sprintf("parameter %s: unknown type %q, kept as string", p.Name, p.Type)})
				}
				ep.Params = append(ep.Params, store.Param{Name: p.Name, Location: loc, Type: p.Type, Required: i == 0,
					Default: jsonScalar(p.Default), Description: p.Description})
			}
		}
		if b := jsonScalar(a.Body); b != "" && b != "{}" {
			ep.BodyExample, ep.ContentType = b, "application/json"
		}
		doc.Endpoints = append(doc.Endpoints, ep)
	}
	if NormalizeHost(doc.API.Host) == "" {
		return nil, fmt.Errorf("%w: no host: neither host nor an absolute endpoint url", ErrBadInput)
	}
	return doc, nil
}
