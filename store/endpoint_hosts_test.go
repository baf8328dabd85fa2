package store

import (
	"context"
	"path/filepath"
	"testing"
)

// One route and method of an API version is one endpoint per host: a description
// whose servers name several hosts keeps the route on each.
func TestEndpointPerHost(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	api := &API{Source: "openapi", Slug: "forecast", Host: "api.wx.test", Version: "1"}
	eps := []Endpoint{
		{Version: "1", IsCurrent: true, Host: "api.wx.test", Method: "GET", Route: "/v1/forecast", Params: []Param{{Name: "lat", Location: "query"}}},
		{Version: "1", IsCurrent: true, Host: "customer-api.wx.test", Method: "GET", Route: "/v1/forecast", Params: []Param{{Name: "lat", Location: "query"}}},
	}
	id := saveTest(t, s, api, eps)
	got, err := s.Endpoints(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Host == got[1].Host || len(got[0].Params) != 1 || len(got[1].Params) != 1 {
		t.Fatalf("endpoints %+v, want /v1/forecast on both hosts with its parameter", got)
	}
	// Saving again without the second host drops it.
	id = saveTest(t, s, api, eps[:1])
	if got, _ := s.Endpoints(ctx, id); len(got) != 1 || got[0].Host != "api.wx.test" {
		t.Errorf("after dropping a host: %+v", got)
	}
}

// A store made before endpoints were keyed by host keeps its endpoints (same ids)
// and their parameters through the migration.
func TestEndpointHostsMigrationKeepsData(t *testing.T) {
	ctx := context.Background()
	var before []migration
	for _, m := range migrations {
		if m.version != 12 {
			before = append(before, m)
		}
	}
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.migrateWith(ctx, before, before[len(before)-1].version); err != nil {
		t.Fatal(err)
	}
	err = old.Update(ctx, func(tx *Tx) error {
		for _, q := range []string{
			`INSERT INTO apis(id, source, slug, crawled_at) VALUES(1, 'openapi', 'wx', 'now')`,
			`INSERT INTO endpoints(id, api_id, host, method, route) VALUES(7, 1, 'api.wx.test', 'GET', '/forecast')`,
			`INSERT INTO params(endpoint_id, name, location) VALUES(7, 'lat', 'query')`,
		} {
			if _, err := tx.exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	defer s.Close()
	eps, err := s.Endpoints(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 1 || eps[0].ID != 7 || len(eps[0].Params) != 1 || eps[0].Params[0].Name != "lat" {
		t.Errorf("after the migration: %+v, want endpoint 7 with its parameter lat", eps)
	}
}
