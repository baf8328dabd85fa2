package retrieve

import (
	"context"
	"errors"
	"flag"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sccg/internal/golden"
	"sccg/release"
	"sccg/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testCorpus is a small corpus of two weather APIs and a stock API.
func testCorpus(t *testing.T) *Corpus {
	t.Helper()
	apis := []store.API{
		{ID: 1, Title: "Weather", Category: "Weather", Description: "Forecasts for any city."},
		{ID: 2, Title: "Stocks", Category: "Finance"},
	}
	eps := []store.Endpoint{
		{APIID: 1, Host: "weather.p.rapidapi.com", Method: "GET", Route: "/forecast/{city}", Name: "Daily forecast", Key: "ep-daily",
			Params: []store.Param{{Name: "city", Location: "path", Required: true}, {Name: "units", Location: "query", Description: "metric or imperial"}}},
		{APIID: 1, Host: "weather.p.rapidapi.com", Method: "GET", Route: "/forecast/{city}/hourly", Name: "Hourly forecast", Key: "ep-hourly"},
		{APIID: 1, Host: "weather.p.rapidapi.com", Method: "POST", Route: "/alerts", Name: "Subscribe to alerts"},
		{APIID: 2, Host: "stocks.p.rapidapi.com", Method: "GET", Route: "/quote/{symbol}", Name: "Latest quote"},
		{APIID: 2, Host: "stocks.p.rapidapi.com", Method: "GET", Route: "/quote/latest", Name: "Latest quotes of the day"},
	}
	c, err := FromEndpoints(SourceStore, apis, eps)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCorpusOrderAndLookup(t *testing.T) {
	c := testCorpus(t)
	want := []string{
		"GET stocks.p.rapidapi.com/quote/latest",
		"GET stocks.p.rapidapi.com/quote/{symbol}",
		"POST weather.p.rapidapi.com/alerts",
		"GET weather.p.rapidapi.com/forecast/{city}",
		"GET weather.p.rapidapi.com/forecast/{city}/hourly",
	}
	if got := ids(c, hitsOf(0, 1, 2, 3, 4)); !reflect.DeepEqual(got, want) {
		t.Errorf("corpus order = %q, want %q", got, want)
	}
	if i, ok := c.Lookup("POST weather.p.rapidapi.com/alerts"); !ok || i != 2 {
		t.Errorf("Lookup = %d, %v", i, ok)
	}
	if c.Len() != 5 || c.Hosts() != 2 {
		t.Errorf("Len %d, Hosts %d", c.Len(), c.Hosts())
	}
	if _, err := FromEndpoints(SourceStore, nil, nil); !errors.Is(err, ErrEmptyCorpus) {
		t.Errorf("empty corpus: %v, want ErrEmptyCorpus", err)
	}
}

func hitsOf(docs ...int) []Hit {
	out := make([]Hit, len(docs))
	for i, d := range docs {
		out[i] = Hit{Doc: d, Score: float64(len(docs) - i)}
	}
	return out
}

func TestRenderAndText(t *testing.T) {
	c := testCorpus(t)
	var b strings.Builder
	for _, d := range c.Docs {
		b.WriteString(d.Render())
		b.WriteString("--- text ---\n" + d.Text() + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "render.golden"), []byte(b.String()), *update)
}

func TestFromRecords(t *testing.T) {
	recs, err := release.ReadFile(filepath.Join("testdata", "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	recs = append(recs, recs[0]) // a repeated endpoint is one document
	c, err := FromRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET skyward-weather.p.rapidapi.com/forecast/{city}",
		"GET skyward-weather.p.rapidapi.com/forecast/{city}/hourly",
		"GET stock-quotes.p.rapidapi.com/history",
		"GET stock-quotes.p.rapidapi.com/quote/{symbol}",
	}
	var got []string
	for _, d := range c.Docs {
		got = append(got, d.ID)
	}
	if !reflect.DeepEqual(got, want) || c.Source != SourceBench {
		t.Errorf("documents %q (source %s), want %q (the sample without a route has none)", got, c.Source, want)
	}
	if d := c.Docs[0]; d.API != "skyward-weather" || d.Name != "Daily forecast" || len(d.Params) != 1 || d.Params[0].Description != "Number of days" {
		t.Errorf("daily forecast document = %+v", d)
	}
	if d := c.Docs[1]; d.Key != "getHourlyForecast" {
		t.Errorf("hourly document key = %q", d.Key)
	}
}

func TestFromStore(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "sccg.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := FromStore(ctx, s); !errors.Is(err, ErrEmptyCorpus) {
		t.Fatalf("empty store: %v, want ErrEmptyCorpus", err)
	}
	api := &store.API{Source: "openapi", Slug: "weather", Title: "Weather", Category: "Weather", Host: "weather.p.rapidapi.com", Version: "v2"}
	eps := []store.Endpoint{
		{Version: "v2", IsCurrent: true, Host: "weather.p.rapidapi.com", Method: "GET", Route: "/forecast/{city}", Name: "Forecast",
			Params: []store.Param{{Name: "city", Location: "path", Required: true, Type: "string"}}},
		{Version: "v1", Host: "weather.p.rapidapi.com", Method: "GET", Route: "/forecast", Name: "Old forecast"},
	}
	if err := s.Update(ctx, func(tx *store.Tx) error { _, err := tx.SaveAPI(ctx, api, eps); return err }); err != nil {
		t.Fatal(err)
	}
	c, err := FromStore(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 1 || c.Docs[0].ID != "GET weather.p.rapidapi.com/forecast/{city}" || c.Docs[0].API != "Weather" || c.Source != SourceStore {
		t.Errorf("store corpus = %+v (only the current version belongs in it)", c.Docs)
	}
}
