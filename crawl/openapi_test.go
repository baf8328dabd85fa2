package crawl

import (
	"context"
	"strings"
	"testing"

	"sccg/store"
)

func TestBuildOpenAPIValidatesForEverySnapshotPage(t *testing.T) {
	ctx := context.Background()
	for _, a := range loadCatalog(t).APIs {
		t.Run(a.Owner+"/"+a.Slug, func(t *testing.T) {
			doc, err := ParsePlayground(readPage(t, a.Owner, a.Slug), "u")
			if err != nil {
				t.Fatal(err)
			}
			Normalize(doc)
			oa, problems := BuildOpenAPI(doc)
			if len(problems) > 0 {
				t.Errorf("problems: %v", problems)
			}
			b, err := MarshalOpenAPI(oa)
			if err != nil {
				t.Fatal(err)
			}
			if err := ValidateOpenAPI(ctx, b); err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			for _, e := range a.Endpoints {
				if !strings.Contains(string(b), `"`+e.Route+`"`) {
					t.Errorf("route %s not in the document", e.Route)
				}
			}
		})
	}
}

func TestBuildOpenAPILeavesOutWhatItCannotHold(t *testing.T) {
	doc := &Doc{API: store.API{Slug: "x", Host: "x.p.rapidapi.com"}, Endpoints: []store.Endpoint{
		{IsCurrent: true, Method: "GET", Route: "/items/{id}", Name: "Item", Params: []store.Param{{Name: "id", Location: "path", Type: "integer", Required: true, Example: "not-a-number"}}},
		{IsCurrent: true, Method: "GET", Route: "/items/{item_id}", Name: "Item"},
		{IsCurrent: true, Method: "PURGE", Route: "/cache"},
		{IsCurrent: false, Method: "GET", Route: "/old"},
		{IsCurrent: true, Method: "POST", Route: "/items", Name: "Item", Params: []store.Param{{Name: "n", Location: "body", Type: "integer", Required: true}}, BodyExample: `{"n":"x"}`},
	}}
	oa, problems := BuildOpenAPI(doc)
	var reasons []string
	for _, p := range problems {
		reasons = append(reasons, p.Subject)
	}
	if strings.Join(reasons, ",") != "GET /items/{item_id},PURGE /cache" {
		t.Errorf("problems = %v", problems)
	}
	b, _ := MarshalOpenAPI(oa)
	if err := ValidateOpenAPI(context.Background(), b); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if strings.Contains(string(b), "/old") || strings.Contains(string(b), "not-a-number") || strings.Contains(string(b), `"example"`) {
		t.Errorf("non-current endpoint or mistyped examples leaked into:\n%s", b)
	}
	if !strings.Contains(string(b), `"Item_2"`) {
		t.Errorf("operation ids not made unique:\n%s", b)
	}
}
