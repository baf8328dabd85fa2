package crawl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	yaml "go.yaml.in/yaml/v4"

	"sccg/store"
)

// Rejection reasons of a description file.
const (
	RejectUnparseable     = "unparseable"
	RejectNotDescription  = "not_a_description"
	RejectInvalidStruct   = "invalid_structure"
	RejectNoHost          = "no_host"
	RejectNoEndpoints     = "no_endpoints"
	RejectUnreadable      = "unreadable"
	RejectSwaggerConvert  = "swagger_conversion_failed"
	RejectUnsupportedSpec = "unsupported_version"
)

// Rejection says why a description file was not imported: a stable reason code
// and a sentence a contributor can act on. It wraps ErrBadInput.
type Rejection struct {
	Reason   string
	Message  string
	Warnings []Warning // what was repaired before it failed
}

func (r *Rejection) Error() string { return ErrBadInput.Error() + ": " + r.Message }

// Unwrap makes a rejection an ErrBadInput.
func (r *Rejection) Unwrap() error { return ErrBadInput }

func reject(reason, format string, a ...any) *Rejection {
	return &Rejection{Reason: reason, Message: fmt.Sprintf(format, a...)}
}

// ReadOptions say how description files are read.
type ReadOptions struct {
	// Root is the docs folder the file was found in: file names in warnings are
	// relative to it, external $refs may not leave it, and the first folder under it
	// names the API's owner when the description does not.
	Root string
	// BaseURL is where relative server URLs point when the file does not say
	// (x-sccg-base-url or a host override).
	BaseURL string
}

// rel names path relative to the root (or as given when it is outside).
func (o ReadOptions) rel(path string) string {
	if o.Root == "" {
		return filepath.ToSlash(path)
	}
	if r, err := filepath.Rel(o.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		if r == "." {
			return filepath.ToSlash(filepath.Base(path))
		}
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

// LoadOpenAPIFile reads an OpenAPI 3.0/3.1 or Swagger 2.0 description with the
// default options (the file's folder as the root, no base URL).
func LoadOpenAPIFile(ctx context.Context, path string) (*Doc, error) {
	return ReadDescription(ctx, path, ReadOptions{Root: filepath.Dir(path)})
}

// ReadDescription reads an OpenAPI 3.0/3.1 or Swagger 2.0 description (JSON or
// YAML) into a document. Typos that would stop kin-openapi from reading it are
// repaired in the raw tree first, validation problems are kept as warnings, and
// every operation with a host becomes an endpoint (the nearest servers win). It
// fails with a *Rejection only when no endpoint is usable.
func ReadDescription(ctx context.Context, path string, o ReadOptions) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, reject(RejectUnreadable, "%s could not be read: %v", o.rel(path), err)
	}
	name := o.rel(path)
	root, rj := parseTree(data, name)
	if rj != nil {
		return nil, rj
	}
	ver, swagger := specVersion(root)
	switch {
	case ver == "":
		return nil, reject(RejectNotDescription, "%s is not an OpenAPI or Swagger description: it has no top-level `openapi` or `swagger` field", name)
	case swagger && !strings.HasPrefix(ver, "2"):
		return nil, reject(RejectUnsupportedSpec, "%s declares swagger %q; only Swagger 2.0 and OpenAPI 3.x are read", name, ver)
	case !swagger && !strings.HasPrefix(ver, "3"):
		return nil, reject(RejectUnsupportedSpec, "%s declares openapi %q; only Swagger 2.0 and OpenAPI 3.x are read", name, ver)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, reject(RejectUnreadable, "%s: %v", name, err)
	}
	rootDir := o.Root
	if rootDir == "" {
		rootDir = filepath.Dir(abs)
	}
	if rootDir, err = filepath.Abs(rootDir); err != nil {
		return nil, reject(RejectUnreadable, "%s: %v", name, err)
	}
	rd := &descReader{opts: o, rootDir: rootDir, swagger: swagger, v31: !swagger && !strings.HasPrefix(ver, "3.0"), dataFiles: map[string]bool{}}
	js := rd.repair(root, name, abs)
	t, rj := rd.load(ctx, js, abs, name)
	if rj != nil && slices.ContainsFunc(rd.warnings, func(w Warning) bool { return w.Reason == WarnRefInlined }) {
		// What was read in place broke the file: read it as written, once more.
		first := rj.Message
		rd.warnings, rd.noInline = nil, true
		root, _ = parseTree(data, name)
		t, rj = rd.load(ctx, rd.repair(root, name, abs), abs, name)
		if rj == nil {
			rd.warn(WarnRefInlined, name, "", "reading $refs in place made the file unreadable (%s); read as written", first)
		}
	}
	if rj != nil {
		rj.Warnings = append(rd.warnings, rj.Warnings...)
		return nil, rj
	}
	rd.validate(ctx, t, name)
	doc, rj := rd.document(t, path, name)
	if rj != nil {
		rj.Warnings = append(rd.warnings, rj.Warnings...)
		return nil, rj
	}
	doc.Warnings = rd.warnings
	return doc, nil
}

// descReader holds what reading one description (and the files it refers to)
// has found.
type descReader struct {
	opts     ReadOptions
	rootDir  string
	swagger  bool
	v31      bool
	warnings []Warning
	noInline bool // read $refs where OpenAPI allows none as written
	// dataFiles are the files $refs inside examples and defaults name: data, read
	// as they are.
	dataFiles map[string]bool
}

// parseTree reads YAML or JSON into a node tree.
func parseTree(data []byte, name string) (*yaml.Node, *Rejection) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, reject(RejectUnparseable, "%s is neither valid YAML nor JSON: %s", name, oneLine(err.Error()))
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0], nil
	}
	return nil, reject(RejectNotDescription, "%s is empty", name)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func specVersion(root *yaml.Node) (ver string, swagger bool) {
	if v := mapValue(root, "openapi"); isScalar(v) {
		return v.Value, false
	}
	if v := mapValue(root, "swagger"); isScalar(v) {
		return v.Value, true
	}
	return "", false
}

// repair repairs the tree of the file at abs and returns it as JSON.
func (rd *descReader) repair(root *yaml.Node, name, abs string) []byte {
	r := &repairer{file: name, v31: rd.v31, swagger: rd.swagger}
	r.ref = func(ref string) string { return rd.checkRef(root, abs, ref) }
	if !rd.noInline {
		r.inline = func(ref string) (*yaml.Node, error) { return rd.inlineRef(abs, ref) }
	}
	r.data = func(ref string) {
		file, _, _ := strings.Cut(ref, "#")
		if file != "" && !strings.Contains(file, "://") {
			rd.dataFiles[filepath.Clean(filepath.Join(filepath.Dir(abs), filepath.FromSlash(file)))] = true
		}
	}
	r.repairDoc(root)
	rd.warnings = append(rd.warnings, r.warnings...)
	var buf bytes.Buffer
	writeJSON(&buf, root, 0)
	return buf.Bytes()
}

// checkRef says why a $ref cannot be followed ("" when it can): a fragment that
// names nothing in the file, a file outside the docs folder or missing, a URL.
func (rd *descReader) checkRef(root *yaml.Node, abs, ref string) string {
	file, frag, _ := strings.Cut(ref, "#")
	if file == "" {
		if frag == "" || pointerNode(root, frag) != nil {
			return ""
		}
		return "names nothing in the file"
	}
	if u, err := url.Parse(file); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return "is a URL; only files inside the docs folder are read"
	}
	target := filepath.Clean(filepath.Join(filepath.Dir(abs), filepath.FromSlash(file)))
	if r, err := filepath.Rel(rd.rootDir, target); err != nil || strings.HasPrefix(r, "..") {
		return "points outside the docs folder"
	}
	if st, err := os.Stat(target); err != nil || st.IsDir() {
		return "names a file that does not exist"
	}
	return ""
}

// inlineRef reads the node an external $ref of the file at cur names, with the
// $refs inside it rewritten to be relative to cur.
func (rd *descReader) inlineRef(cur, ref string) (*yaml.Node, error) {
	file, frag, _ := strings.Cut(ref, "#")
	target := filepath.Clean(filepath.Join(filepath.Dir(cur), filepath.FromSlash(file)))
	data, err := os.ReadFile(target)
	if err != nil {
		return nil, err
	}
	root, rj := parseTree(data, rd.opts.rel(target))
	if rj != nil {
		return nil, rj
	}
	n := pointerNode(root, frag)
	if n == nil {
		return nil, fmt.Errorf("%s names nothing", ref)
	}
	self, err := filepath.Rel(filepath.Dir(cur), target)
	if err != nil {
		return nil, err
	}
	rebaseRefs(n, filepath.Dir(target), filepath.Dir(cur), filepath.ToSlash(self), 0)
	return n, nil
}

// rebaseRefs rewrites the $refs in n, written relative to the file self in
// fromDir, to be relative to toDir.
func rebaseRefs(n *yaml.Node, fromDir, toDir, self string, depth int) {
	if n == nil || depth > 200 {
		return
	}
	rebase := func(v *yaml.Node) {
		file, frag, hasFrag := strings.Cut(v.Value, "#")
		switch {
		case file == "":
			v.Value = self + v.Value
		case strings.Contains(file, "://"):
		default:
			rel, err := filepath.Rel(toDir, filepath.Join(fromDir, filepath.FromSlash(file)))
			if err != nil {
				return
			}
			v.Value = filepath.ToSlash(rel)
			if hasFrag {
				v.Value += "#" + frag
			}
		}
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case k.Value == "$ref" && v.Kind == yaml.ScalarNode:
				rebase(v)
			case k.Value == "discriminator": // its mapping names schemas by $ref too
				m := mapValue(v, "mapping")
				for j := 0; m != nil && j+1 < len(m.Content); j += 2 {
					if t := m.Content[j+1]; t.Kind == yaml.ScalarNode && strings.ContainsAny(t.Value, "#/.") {
						rebase(t)
					}
				}
			}
		}
	}
	for _, c := range n.Content {
		rebaseRefs(c, fromDir, toDir, self, depth+1)
	}
}

// pointerNode follows a JSON pointer from root.
func pointerNode(root *yaml.Node, ptr string) *yaml.Node {
	n := root
	for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if part == "" && ptr == "" {
			return n
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		if p, err := url.PathUnescape(part); err == nil {
			part = p
		}
		switch n.Kind {
		case yaml.MappingNode:
			n = mapValue(n, part)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		}
	}
	return n
}

// writeJSON renders a YAML node as JSON: keys as strings, timestamps as strings,
// aliases expanded.
func writeJSON(b *bytes.Buffer, n *yaml.Node, depth int) {
	if depth > 200 {
		b.WriteString("null")
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		writeJSON(b, n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			writeJSON(b, n.Content[0], depth+1)
		} else {
			b.WriteString("null")
		}
	case yaml.MappingNode:
		b.WriteByte('{')
		seen := map[string]bool{}
		first := true
		var emit func(m *yaml.Node, d int)
		emit = func(m *yaml.Node, d int) {
			for i := 0; i+1 < len(m.Content); i += 2 {
				k, v := m.Content[i], m.Content[i+1]
				if k.Value == "<<" && k.ShortTag() == "!!merge" {
					continue
				}
				if seen[k.Value] {
					continue
				}
				seen[k.Value] = true
				if !first {
					b.WriteByte(',')
				}
				first = false
				kb, _ := json.Marshal(k.Value)
				b.Write(kb)
				b.WriteByte(':')
				writeJSON(b, v, d+1)
			}
			for i := 0; i+1 < len(m.Content); i += 2 { // merge keys fill what is not set
				if k := m.Content[i]; k.Value == "<<" && k.ShortTag() == "!!merge" {
					src := m.Content[i+1]
					if src.Kind == yaml.AliasNode {
						src = src.Alias
					}
					if src.Kind == yaml.MappingNode && d < 200 {
						emit(src, d+1)
					}
				}
			}
		}
		emit(n, depth)
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, c, depth+1)
		}
		b.WriteByte(']')
	default:
		writeScalar(b, n)
	}
}

func writeScalar(b *bytes.Buffer, n *yaml.Node) {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
		return
	case "!!bool":
		var v bool
		if n.Decode(&v) == nil {
			b.WriteString(strconv.FormatBool(v))
			return
		}
	case "!!int":
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			b.WriteString(strconv.FormatInt(v, 10))
			return
		}
		var f float64
		if n.Decode(&f) == nil {
			fb, _ := json.Marshal(f)
			b.Write(fb)
			return
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil {
			if fb, err := json.Marshal(f); err == nil {
				b.Write(fb)
				return
			}
		}
	}
	sb, _ := json.Marshal(n.Value)
	b.Write(sb)
}

// readURI reads a file an external $ref names, inside the docs folder only, and
// repairs it like the description itself.
func (rd *descReader) readURI(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
	if u.Scheme != "" && u.Scheme != "file" {
		return nil, fmt.Errorf("%s: only files inside the docs folder are read", u)
	}
	p := filepath.Clean(filepath.FromSlash(u.Path))
	if r, err := filepath.Rel(rd.rootDir, p); err != nil || strings.HasPrefix(r, "..") {
		return nil, fmt.Errorf("%s is outside the docs folder", u.Path)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	name := rd.opts.rel(p)
	root, rj := parseTree(data, name)
	if rj != nil {
		return nil, errors.New(rj.Message)
	}
	if rd.dataFiles[p] {
		var buf bytes.Buffer
		writeJSON(&buf, root, 0)
		return buf.Bytes(), nil
	}
	return rd.repair(root, name, p), nil
}

// load unmarshals the repaired JSON with kin-openapi, resolving $refs (files
// inside the docs folder only); Swagger 2 is converted to OpenAPI 3.
func (rd *descReader) load(ctx context.Context, js []byte, abs, name string) (*openapi3.T, *Rejection) {
	l := openapi3.NewLoader()
	l.Context = ctx
	l.IsExternalRefsAllowed = true
	l.ReadFromURIFunc = rd.readURI
	loc := &url.URL{Path: filepath.ToSlash(abs)}
	if rd.swagger {
		var t2 openapi2.T
		if err := json.Unmarshal(js, &t2); err != nil {
			return nil, reject(RejectInvalidStruct, "%s is not a readable Swagger 2.0 description: %s", name, oneLine(err.Error()))
		}
		t, err := openapi2conv.ToV3WithLoader(&t2, l, loc)
		if err != nil {
			return nil, reject(RejectSwaggerConvert, "%s could not be converted from Swagger 2.0: %s", name, oneLine(err.Error()))
		}
		return t, nil
	}
	t, err := l.LoadFromDataWithPath(js, loc)
	if err != nil {
		return nil, reject(RejectInvalidStruct, "%s is not a readable OpenAPI description: %s", name, oneLine(err.Error()))
	}
	return t, nil
}

// validate runs kin-openapi's validation with every error reported, and keeps
// each problem as a warning by what it is about: none of them changes what an
// endpoint is.
func (rd *descReader) validate(ctx context.Context, t *openapi3.T, name string) {
	err := t.Validate(ctx, openapi3.EnableMultiError())
	if err == nil {
		return
	}
	for _, e := range flattenErrors(err) {
		msg := oneLine(e.Error())
		reason := validationReason(msg)
		if len(msg) > maxDetail {
			msg = strings.ToValidUTF8(msg[:maxDetail], "") + "…"
		}
		rd.warnings = append(rd.warnings, Warning{Reason: reason, File: name, Detail: msg})
	}
}

func flattenErrors(err error) []error {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		var out []error
		for _, e := range me {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

var (
	exampleErr = regexp.MustCompile(`(?i)invalid examples?\b|\bexample value`)
	defaultErr = regexp.MustCompile(`(?i)invalid default\b|\bdefault value`)
	formatErr  = regexp.MustCompile(`(?i)match the format|unsupported format|format of`)
	patternErr = regexp.MustCompile(`(?i)invalid pattern|regular expression`)
)

// maxDetail is the longest validation message a warning keeps.
const maxDetail = 300

// validationReason classifies a kin-openapi validation message. A value that does
// not match its schema ("Error at …: … Schema: … Value: …") is an example.
func validationReason(msg string) string {
	switch {
	case strings.HasPrefix(msg, "invalid servers") || strings.Contains(msg, "invalid server "):
		return WarnServerVariable
	case exampleErr.MatchString(msg) || (strings.Contains(msg, "Schema:") && strings.Contains(msg, "Value:")):
		return WarnExampleMismatch
	case defaultErr.MatchString(msg):
		return WarnDefaultMismatch
	case formatErr.MatchString(msg):
		return WarnFormatIgnored
	case patternErr.MatchString(msg):
		return WarnPatternIgnored
	}
	return WarnValidationIgnored
}

func (rd *descReader) warn(reason, file, ptr, format string, a ...any) {
	rd.warnings = append(rd.warnings, Warning{Reason: reason, File: file, Pointer: ptr, Detail: fmt.Sprintf(format, a...)})
}

// ext reads the first of keys found as a string extension of the document root
// or its info.
func ext(t *openapi3.T, keys ...string) string {
	for _, k := range keys {
		if s := extString(t.Extensions, k); s != "" {
			return s
		}
		if t.Info != nil {
			if s := extString(t.Info.Extensions, k); s != "" {
				return s
			}
		}
	}
	return ""
}

// extFirst reads the first string of a list extension (x-apisguru-categories).
func extFirst(t *openapi3.T, key string) string {
	for _, m := range []map[string]any{t.Extensions, infoExt(t)} {
		var list []string
		switch v := m[key].(type) {
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					list = append(list, s)
				}
			}
		case json.RawMessage:
			_ = json.Unmarshal(v, &list)
		}
		if len(list) > 0 {
			return list[0]
		}
	}
	return ""
}

func infoExt(t *openapi3.T) map[string]any {
	if t.Info == nil {
		return nil
	}
	return t.Info.Extensions
}

// document turns a loaded description into a document: the API's names, and one
// endpoint per operation with a host.
func (rd *descReader) document(t *openapi3.T, path, name string) (*Doc, *Rejection) {
	title, version, desc := "", "", ""
	if t.Info != nil {
		title, version, desc = strings.TrimSpace(t.Info.Title), t.Info.Version, t.Info.Description
	}
	owner, slug := "", ""
	if api := ext(t, "x-sccg-api"); api != "" {
		owner, slug, _ = strings.Cut(api, "/")
		if slug == "" {
			owner, slug = "", api
		}
	}
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	provider := providerDir(name)
	if title == "" {
		title = firstNonEmpty(ext(t, "x-serviceName"), provider, stem)
		rd.warn(WarnNoTitle, name, "/info/title", "no info.title; the API is named %q", title)
	}
	owner = firstNonEmpty(ext(t, "x-sccg-owner", "x-rapidapi-owner"), owner, ext(t, "x-providerName"), provider)
	slug = firstNonEmpty(ext(t, "x-sccg-slug", "x-rapidapi-slug"), slug, Slugify(title), Slugify(stem))
	doc := &Doc{API: store.API{
		Source: SourceOpenAPI, Owner: owner, Slug: slug, Title: title, Description: desc, Version: version, URL: path,
		Category: firstNonEmpty(ext(t, "x-sccg-category", "x-rapidapi-category"), extFirst(t, "x-apisguru-categories")),
	}}
	sv := &serverResolver{rd: rd, file: name, hostOverride: NormalizeHost(ext(t, "x-sccg-host", "x-rapidapi-host")),
		base: firstNonEmpty(ext(t, "x-sccg-base-url"), rd.opts.BaseURL)}
	docServers := sv.resolve(t.Servers, "/servers")
	var noHost []string
	var primary []store.Endpoint // each operation's first server
	for _, route := range t.Paths.InMatchingOrder() {
		item := t.Paths.Value(route)
		if item == nil {
			continue
		}
		itemPtr := "/paths/" + escapePointer(route)
		itemServers := docServers
		if len(item.Servers) > 0 {
			itemServers = sv.resolve(item.Servers, itemPtr+"/servers")
		}
		ops := item.Operations()
		for _, m := range slices.Sorted(maps.Keys(ops)) {
			op := ops[m]
			servers := itemServers
			if op.Servers != nil && len(*op.Servers) > 0 {
				servers = sv.resolve(*op.Servers, itemPtr+"/"+strings.ToLower(m)+"/servers")
			}
			if len(servers) == 0 {
				noHost = append(noHost, m+" "+route)
				continue
			}
			ep := store.Endpoint{Version: version, IsCurrent: true, Key: op.OperationID,
				Name: firstNonEmpty(op.Summary, op.OperationID), Description: op.Description, Method: m}
			ep.Params = rd.params(doc, m, route, item, op)
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				ep.ContentType, ep.BodyExample, ep.Params = requestBodyParams(op.RequestBody.Value, ep.Params)
			}
			primary = append(primary, store.Endpoint{Host: servers[0].host})
			for _, srv := range servers { // one endpoint per host the nearest servers name
				e := ep
				e.Host, e.Route = srv.host, srv.path+route
				e.Params = slices.Clone(ep.Params)
				doc.Endpoints = append(doc.Endpoints, e)
			}
		}
	}
	if len(doc.Endpoints) == 0 {
		if len(noHost) == 0 {
			return nil, reject(RejectNoEndpoints, "%s has no operations: add at least one path with an HTTP method under `paths`", name)
		}
		return nil, reject(RejectNoHost, "%s says nowhere which host serves its %d operation(s) (%s): add a `servers` entry with an absolute URL such as https://api.example.com/v1%s, or an `x-sccg-host` field, or import it with --base-url https://HOST",
			name, len(noHost), strings.Join(noHost[:min(3, len(noHost))], ", "), sv.why())
	}
	for _, op := range noHost {
		rd.warn(WarnOperationNoHost, name, "", "%s has no server with a host; left out", op)
	}
	doc.API.Host = sv.hostOverride
	if doc.API.Host == "" && len(docServers) > 0 {
		doc.API.Host = docServers[0].host
	}
	if doc.API.Host == "" {
		doc.API.Host = mostCommonHost(primary)
	}
	return doc, nil
}

// params reads an operation's parameters (the path item's, then its own).
func (rd *descReader) params(doc *Doc, m, route string, item *openapi3.PathItem, op *openapi3.Operation) []store.Param {
	var out []store.Param
	for _, pr := range append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...) {
		if pr == nil || pr.Value == nil {
			continue
		}
		p := pr.Value
		sp := store.Param{Name: p.Name, Location: p.In, Required: p.Required, Description: p.Description, Type: "string"}
		if p.Schema != nil && p.Schema.Value != nil {
			sp.Type = schemaType(p.Schema.Value)
			sp.Default = anyText(p.Schema.Value.Default)
			sp.Example = anyText(p.Schema.Value.Example)
		}
		if p.Example != nil {
			sp.Example = anyText(p.Example)
		}
		if p.In == openapi3.ParameterInCookie {
			doc.Problems = append(doc.Problems, Problem{Subject: m + " " + route, Reason: "cookie parameter " + p.Name + " dropped"})
			continue
		}
		if p.In == openapi3.ParameterInPath && !slices.Contains(PathParams(route), p.Name) {
			doc.Problems = append(doc.Problems, Problem{Subject: m + " " + route, Reason: "path parameter " + p.Name + " is not in the route; dropped"})
			continue
		}
		out = append(out, sp)
	}
	return out
}

// versionDir matches a folder named for a version: 1.0, v2, 2021-06-01, 3.4.0-pre.
var versionDir = regexp.MustCompile(`^[vV]?\d[\w.\-]*$`)

// providerDir is the provider of a file laid out like the public catalogs,
// [<folder>/]<provider>/[<service>/]<version>/openapi.yaml: when the file's own
// folder is named for a version, the nearest folder above it named like a domain
// (1password.com), else the folder just above the version; "" otherwise.
func providerDir(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) < 3 || !versionDir.MatchString(parts[len(parts)-2]) {
		return ""
	}
	dirs := parts[:len(parts)-2]
	for i := len(dirs) - 1; i >= 0; i-- {
		if strings.Contains(dirs[i], ".") && !strings.HasPrefix(dirs[i], ".") {
			return dirs[i]
		}
	}
	if d := dirs[len(dirs)-1]; d != ".." && d != "." {
		return d
	}
	return ""
}

// mostCommonHost is the host most endpoints have (the first in name order of
// those tied).
func mostCommonHost(eps []store.Endpoint) string {
	n := map[string]int{}
	for _, e := range eps {
		n[e.Host]++
	}
	best := ""
	for h, c := range n {
		if best == "" || c > n[best] || (c == n[best] && h < best) {
			best = h
		}
	}
	return best
}
