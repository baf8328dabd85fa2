package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func ptrF(f float64) *float64 { return &f }
func ptrI(i int64) *int64     { return &i }

func weatherAPI() (*API, []Endpoint) {
	api := &API{Source: "rapidapi", Owner: "skyward", Slug: "weather", Title: "Weather", Category: "Weather",
		Host: "Weather.P.RapidAPI.com", Version: "v2", Popularity: ptrF(9.5), Subscribers: ptrI(120),
		Extra: map[string]any{"tags": "forecast"}}
	eps := []Endpoint{
		{Version: "v2", IsCurrent: true, Host: "WEATHER.p.rapidapi.com", Method: "get", Route: "/forecast/{city}", Name: "Forecast",
			Params: []Param{{Name: "units", Location: "query"}, {Name: "city", Location: "path", Required: true}}},
		{Version: "v2", IsCurrent: true, Host: "weather.p.rapidapi.com", Method: "POST", Route: "/alerts", ContentType: "application/json",
			BodyExample: `{"city":"Oslo"}`, Params: []Param{{Name: "city", Location: "body", Type: "string"}}},
		{Version: "v1", Host: "weather.p.rapidapi.com", Method: "GET", Route: "/forecast", Params: []Param{{Name: "city", Location: "query", Type: "string"}}},
	}
	return api, eps
}

func saveTest(t *testing.T, s *Store, api *API, eps []Endpoint) int64 {
	t.Helper()
	var id int64
	err := s.Update(context.Background(), func(tx *Tx) (err error) {
		id, err = tx.SaveAPI(context.Background(), api, eps)
		return err
	})
	if err != nil {
		t.Fatalf("SaveAPI: %v", err)
	}
	return id
}

func TestSaveAPIRoundTripsAndNormalizesCase(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	api, eps := weatherAPI()
	id := saveTest(t, s, api, eps)
	if id == 0 || api.ID != id {
		t.Fatalf("id = %d, api.ID = %d", id, api.ID)
	}
	got, err := s.API(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Host != "weather.p.rapidapi.com" || *got.Popularity != 9.5 || *got.Subscribers != 120 || got.LatencyMS != nil || got.Extra["tags"] != "forecast" {
		t.Errorf("API = %+v", got)
	}
	bySlug, err := s.APIBySlug(ctx, "skyward", "weather")
	if err != nil || bySlug.ID != id {
		t.Fatalf("APIBySlug = %+v, %v", bySlug, err)
	}
	list, err := s.APIs(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("APIs = %d, %v", len(list), err)
	}
	got2, err := s.Endpoints(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, e := range got2 {
		line := e.Version + " " + e.Method + " " + e.Route + " " + e.Host
		for _, p := range e.Params {
			line += " " + p.Location + ":" + p.Name + ":" + p.Type
		}
		summary = append(summary, line)
	}
	want := []string{
		"v2 POST /alerts weather.p.rapidapi.com body:city:string",
		"v2 GET /forecast/{city} weather.p.rapidapi.com path:city:string query:units:string",
		"v1 GET /forecast weather.p.rapidapi.com query:city:string",
	}
	if !reflect.DeepEqual(summary, want) {
		t.Errorf("Endpoints =\n%q\nwant\n%q", summary, want)
	}
	if !got2[0].IsCurrent || got2[2].IsCurrent {
		t.Errorf("current flags wrong: %+v", got2)
	}
	byHost, err := s.EndpointsByHost(ctx, "WEATHER.p.rapidapi.com")
	if err != nil || !reflect.DeepEqual(byHost, got2) {
		t.Errorf("EndpointsByHost = %+v, %v; want the same as Endpoints", byHost, err)
	}
	current, err := s.CurrentEndpoints(ctx)
	if err != nil || !reflect.DeepEqual(current, got2[:2]) {
		t.Errorf("CurrentEndpoints = %+v, %v; want the two v2 endpoints", current, err)
	}
}

func TestSaveAPIIsIdempotentAndReplacesOnlyGivenVersions(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	api, eps := weatherAPI()
	saveTest(t, s, api, eps)
	before := mustDump(t, s, "apis", "endpoints", "params")
	api2, eps2 := weatherAPI()
	saveTest(t, s, api2, eps2)
	after := mustDump(t, s, "apis", "endpoints", "params")
	if before != after {
		t.Fatalf("second save changed the store:\n%s\nvs\n%s", before, after)
	}

	// A new crawl of v2 drops /alerts and a param; v1 stays untouched.
	api3, _ := weatherAPI()
	v2 := []Endpoint{{Version: "v2", IsCurrent: true, Host: "weather.p.rapidapi.com", Method: "GET", Route: "/forecast/{city}",
		Params: []Param{{Name: "city", Location: "path", Required: true}}}}
	saveTest(t, s, api3, v2)
	got, err := s.Endpoints(ctx, api3.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Route != "/forecast/{city}" || len(got[0].Params) != 1 || got[1].Version != "v1" {
		t.Fatalf("after replacing v2: %+v", got)
	}
	if got[0].ID != eps[0].ID {
		t.Errorf("unchanged endpoint got a new id: %d, was %d", got[0].ID, eps[0].ID)
	}
}

func TestAPILookupsNotFound(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	tests := []struct {
		name string
		call func() error
	}{
		{"by id", func() error { _, err := s.API(ctx, 42); return err }},
		{"by slug", func() error { _, err := s.APIBySlug(ctx, "nobody", "nothing"); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
	}
	eps, err := s.EndpointsByHost(ctx, "none.example")
	if err != nil || len(eps) != 0 {
		t.Errorf("EndpointsByHost(unknown) = %v, %v", eps, err)
	}
}

// TestLastIDAfterUpsertUpdate pins the SQLite behaviour lastID works around: an
// upsert that updates leaves LastInsertId at the previous insert's id.
func TestLastIDAfterUpsertUpdate(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	api, eps := weatherAPI()
	first := saveTest(t, s, api, eps)
	var got int64
	err := s.Update(ctx, func(tx *Tx) error {
		// Another row inserted first, with a different id.
		if _, err := tx.exec(ctx, `INSERT INTO apis(source, owner, slug, crawled_at) VALUES('rapidapi','other','api','x')`); err != nil {
			return err
		}
		res, err := tx.exec(ctx, `INSERT INTO apis(source, owner, slug, crawled_at) VALUES('rapidapi','skyward','weather','x')
			ON CONFLICT(source, owner, slug) DO UPDATE SET title='again'`)
		if err != nil {
			return err
		}
		got, err = tx.lastID(ctx, res, `SELECT id FROM apis WHERE source=? AND owner=? AND slug=?`, "rapidapi", "skyward", "weather")
		return err
	})
	if err != nil || got != first {
		t.Errorf("lastID after an updating upsert = %d, %v; want %d", got, err, first)
	}
}
