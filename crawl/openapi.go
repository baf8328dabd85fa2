package crawl

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"sccg/store"
)

// standardMethods are the operations an OpenAPI 3.0 path item can hold.
var standardMethods = map[string]bool{http.MethodGet: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodHead: true, http.MethodOptions: true, http.MethodTrace: true}

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9]+`)

// BuildOpenAPI renders a normalized document's current version as an OpenAPI 3.0
// document: one server (https://host), one operation per endpoint with its
// parameters and request body. Endpoints OpenAPI cannot hold (a non-standard method,
// a route that conflicts with another) are left out and reported as problems.
func BuildOpenAPI(doc *Doc) (*openapi3.T, []Problem) {
	a := doc.API
	t := &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{
			Title:       firstNonEmpty(a.Title, a.Slug),
			Version:     firstNonEmpty(a.Version, "1.0"),
			Description: a.Description,
		},
		Paths: openapi3.NewPaths(),
		Extensions: map[string]any{
			"x-sccg-source": a.Source,
			"x-sccg-api":    strings.TrimPrefix(a.Owner+"/"+a.Slug, "/"),
		},
	}
	if a.Category != "" {
		t.Extensions["x-sccg-category"] = a.Category
	}
	if a.Host != "" {
		t.Servers = openapi3.Servers{{URL: "https://" + a.Host}}
		t.Extensions["x-rapidapi-host"] = a.Host
	}
	var problems []Problem
	seenTemplate := map[string]string{} // route with parameter names blanked → route
	opIDs := map[string]int{}
	built := map[string]*openapi3.Operation{} // method and route → operation
	hosts := map[string][]string{}            // method and route → the hosts serving it
	for _, e := range doc.Endpoints {
		if !e.IsCurrent {
			continue
		}
		subject := e.Method + " " + e.Route
		if built[subject] != nil { // the same route on another host
			if !slices.Contains(hosts[subject], e.Host) {
				hosts[subject] = append(hosts[subject], e.Host)
			}
			continue
		}
		if !standardMethods[e.Method] {
			problems = append(problems, Problem{Subject: subject, Reason: "method not expressible in OpenAPI 3.0; left out of the OpenAPI document"})
			continue
		}
		blank := braceParam.ReplaceAllString(e.Route, "{}")
		if prev, ok := seenTemplate[blank]; ok && prev != e.Route {
			problems = append(problems, Problem{Subject: subject, Reason: "route conflicts with " + prev + "; left out of the OpenAPI document"})
			continue
		}
		seenTemplate[blank] = e.Route
		item := t.Paths.Value(e.Route)
		if item == nil {
			item = &openapi3.PathItem{}
			t.Paths.Set(e.Route, item)
		}
		op := openapi3.NewOperation()
		op.Summary = e.Name
		op.Description = e.Description
		id := nonIdent.ReplaceAllString(firstNonEmpty(e.Name, strings.ToLower(e.Method)+" "+e.Route), "_")
		id = strings.Trim(id, "_")
		if id == "" {
			id = "op"
		}
		if n := opIDs[id]; n > 0 {
			opIDs[id] = n + 1
			id = fmt.Sprintf("%s_%d", id, n+1)
		} else {
			opIDs[id] = 1
		}
		op.OperationID = id
		if e.Key != "" {
			op.Extensions = map[string]any{"x-sccg-endpoint-id": e.Key}
		}
		var body, form []store.Param
		for _, p := range e.Params {
			switch p.Location {
			case "body":
				body = append(body, p)
			case "form":
				form = append(form, p)
			default:
				op.AddParameter(openapiParam(p))
			}
		}
		if rb := requestBody(e, body, form); rb != nil {
			op.RequestBody = &openapi3.RequestBodyRef{Value: rb}
		}
		op.Responses = openapi3.NewResponses(openapi3.WithStatus(200, &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("OK")}))
		built[subject], hosts[subject] = op, []string{firstNonEmpty(e.Host, a.Host)}
		item.SetOperation(e.Method, op)
	}
	for subject, hs := range hosts { // an operation served elsewhere than the API's host names its servers
		if len(hs) == 1 && hs[0] == a.Host {
			continue
		}
		servers := openapi3.Servers{}
		for _, h := range hs {
			servers = append(servers, &openapi3.Server{URL: "https://" + h})
		}
		built[subject].Servers = &servers
	}
	return t, problems
}

func paramSchema(p store.Param) *openapi3.Schema {
	var s *openapi3.Schema
	switch p.Type {
	case "integer":
		s = openapi3.NewIntegerSchema()
	case "number":
		s = openapi3.NewFloat64Schema()
		s.Format = ""
	case "boolean":
		s = openapi3.NewBoolSchema()
	case "array":
		s = openapi3.NewArraySchema().WithItems(openapi3.NewStringSchema())
	case "object":
		s = openapi3.NewObjectSchema()
	default:
		s = openapi3.NewStringSchema()
	}
	s.Description = ""
	if v, ok := typedValue(p.Type, p.Default); ok && s.VisitJSON(v) == nil {
		s.Default = v
	}
	return s
}

func openapiParam(p store.Param) *openapi3.Parameter {
	var op *openapi3.Parameter
	switch p.Location {
	case "path":
		op = openapi3.NewPathParameter(p.Name)
	case "header":
		op = openapi3.NewHeaderParameter(p.Name)
	default:
		op = openapi3.NewQueryParameter(p.Name)
	}
	op.Required = p.Required || p.Location == "path"
	op.Description = p.Description
	s := paramSchema(p)
	op.Schema = &openapi3.SchemaRef{Value: s}
	if v, ok := typedValue(p.Type, p.Example); ok && s.VisitJSON(v) == nil {
		op.Example = v
	}
	return op
}

// typedValue turns a stored example or default (text) into a value of the OpenAPI
// type, so that the document's examples validate against its schemas.
func typedValue(typ, s string) (any, bool) {
	if s == "" {
		return nil, false
	}
	switch typ {
	case "integer":
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	case "number":
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	case "boolean":
		v, err := strconv.ParseBool(s)
		return v, err == nil
	case "array", "object":
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, false
		}
		return v, true
	}
	return s, true
}

func requestBody(e store.Endpoint, body, form []store.Param) *openapi3.RequestBody {
	if len(body) == 0 && len(form) == 0 && e.BodyExample == "" {
		return nil
	}
	params, ct := body, e.ContentType
	if len(body) == 0 && len(form) > 0 {
		params = form
		if ct == "" || ct == "application/json" {
			ct = "application/x-www-form-urlencoded"
		}
	}
	if ct == "" {
		ct = "application/json"
	}
	schema := openapi3.NewObjectSchema()
	for _, p := range params {
		s := paramSchema(p)
		s.Description = p.Description
		schema.WithProperty(p.Name, s)
		if p.Required {
			schema.Required = append(schema.Required, p.Name)
		}
	}
	mt := openapi3.NewMediaType().WithSchema(schema)
	if e.BodyExample != "" && strings.Contains(ct, "json") {
		var v any
		if json.Unmarshal([]byte(e.BodyExample), &v) == nil && schema.VisitJSON(v) == nil {
			mt.Example = v
		}
	}
	rb := openapi3.NewRequestBody().WithContent(openapi3.Content{ct: mt})
	for _, p := range params {
		if p.Required {
			rb.Required = true
		}
	}
	return rb
}

// MarshalOpenAPI renders t as indented JSON (map keys sorted, so the same document
// always gives the same bytes).
func MarshalOpenAPI(t *openapi3.T) ([]byte, error) {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("marshal openapi: %w", err)
	}
	return b, nil
}

// ValidateOpenAPI loads an OpenAPI 3 document from data and validates it with
// kin-openapi.
func ValidateOpenAPI(ctx context.Context, data []byte) error {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	t, err := loader.LoadFromData(data)
	if err != nil {
		return fmt.Errorf("load openapi: %w", err)
	}
	if err := t.Validate(ctx); err != nil {
		return fmt.Errorf("validate openapi: %w", err)
	}
	return nil
}

// ExportOpenAPI returns the stored OpenAPI document of the API named "owner/slug"
// (or a bare slug when owner is empty).
func ExportOpenAPI(ctx context.Context, s *store.Store, owner, slug string) ([]byte, error) {
	a, err := s.APIBySlug(ctx, owner, slug)
	if err != nil {
		return nil, fmt.Errorf("export openapi %s/%s: %w", owner, slug, err)
	}
	if a.OpenAPI == "" {
		return nil, fmt.Errorf("export openapi %s/%s: no OpenAPI document stored", owner, slug)
	}
	return []byte(a.OpenAPI), nil
}
