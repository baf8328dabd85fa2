package provenance

import (
	"testing"

	"sccg/store"
)

func TestQueryHitPrefersTheSamplesOwnAPI(t *testing.T) {
	f := &store.File{QueryLayer: store.LayerEndpointURL, Query: `"https://hotels.p.rapidapi.com/search"`}
	hits := []store.FileHit{
		{APIID: 1, QueryLayer: store.LayerEndpointURL, Query: `"https://hotels.p.rapidapi.com/search"`},
		{APIID: 2, QueryLayer: store.LayerHost, Query: `"weather.p.rapidapi.com"`},
		{APIID: 2, QueryLayer: store.LayerRouteHost, Query: `"weather.p.rapidapi.com" "/b"`},
		{APIID: 2, QueryLayer: store.LayerRouteHost, Query: `"weather.p.rapidapi.com" "/a"`},
	}
	tests := []struct {
		name             string
		apiID            int64
		layer, wantQuery string
	}{
		{"own API's strictest layer, ties by query", 2, store.LayerRouteHost, `"weather.p.rapidapi.com" "/a"`},
		{"the file's own API", 1, store.LayerEndpointURL, `"https://hotels.p.rapidapi.com/search"`},
		{"no hit for the API: the file's strongest", 3, store.LayerEndpointURL, `"https://hotels.p.rapidapi.com/search"`},
		{"unknown API", 0, store.LayerEndpointURL, `"https://hotels.p.rapidapi.com/search"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, q := QueryHit(f, hits, tt.apiID)
			if l != tt.layer || q != tt.wantQuery {
				t.Fatalf("QueryHit = %s %s, want %s %s", l, q, tt.layer, tt.wantQuery)
			}
		})
	}
}
