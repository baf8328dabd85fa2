package retrieve

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"sccg/evaluate/sandbox"
	"sccg/internal/golden"
	"sccg/lang"
	"sccg/release"
	"sccg/store"
)

// skywardCorpus holds the endpoints of testdata/bench.json's two APIs, as their
// documentation lists them (cmd/sccg/testdata/retrieve-docs).
func skywardCorpus(t *testing.T) *Corpus {
	t.Helper()
	const w, s = "skyward-weather.p.rapidapi.com", "stock-quotes.p.rapidapi.com"
	apis := []store.API{{ID: 1, Title: "Skyward Weather", Category: "Weather", Description: "Forecasts and severe-weather alerts for any city."},
		{ID: 2, Title: "Stock Quotes", Category: "Finance", Description: "Real-time and historical stock prices."}}
	eps := []store.Endpoint{
		{APIID: 1, Host: w, Method: "GET", Route: "/forecast/{city}", Key: "getForecast", Name: "Daily forecast",
			Description: "Daily highs, lows and precipitation for the next days.",
			Params:      []store.Param{{Name: "city", Location: "path"}, {Name: "days", Location: "query", Description: "Number of days, 1 to 14."}}},
		{APIID: 1, Host: w, Method: "GET", Route: "/forecast/{city}/hourly", Key: "getHourlyForecast", Name: "Hourly forecast",
			Params: []store.Param{{Name: "city", Location: "path"}}},
		{APIID: 1, Host: w, Method: "POST", Route: "/alerts", Key: "subscribeAlerts", Name: "Subscribe to alerts",
			Description: "Register a webhook for severe-weather alerts.", Params: []store.Param{{Name: "webhook_url", Location: "body"}}},
		{APIID: 2, Host: s, Method: "GET", Route: "/quote/{symbol}", Name: "Latest quote", Description: "The last traded price of a ticker symbol.",
			Params: []store.Param{{Name: "symbol", Location: "path", Description: "Ticker, e.g. AAPL"}}},
		{APIID: 2, Host: s, Method: "GET", Route: "/history", Name: "Price history", Description: "Daily closing prices between two dates.",
			Params: []store.Param{{Name: "symbol", Location: "query", Description: "Ticker"}, {Name: "from", Location: "query", Description: "First day"}}},
	}
	c, err := FromEndpoints(SourceDocs, apis, eps)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEvaluateBM25OnTheTestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the gold code in the sandbox")
	}
	ctx := context.Background()
	recs, err := release.ReadFile(filepath.Join("testdata", "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := skywardCorpus(t)
	qs := Queries(recs, QueryOptions{})
	runner, err := sandbox.New(ctx, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close()
	if unrun, err := AddGoldCalls(ctx, map[lang.Name]GoldRunner{lang.Python: runner}, qs, 2); err != nil || len(unrun) != 0 {
		t.Fatalf("unrun %v, err %v", unrun, err)
	}
	rep, err := Evaluate(ctx, Config{Corpus: c, Retriever: NewBM25(c, DefaultBM25), Name: NameBM25, Queries: qs})
	if err != nil {
		t.Fatal(err)
	}
	// The sample that also posts to /alerts uses two endpoints; the one without
	// comments is queried by its function name.
	s2, s4 := rep.Samples[1], rep.Samples[3]
	if len(s2.Used) != 2 || s2.Used[1] != "POST skyward-weather.p.rapidapi.com/alerts" {
		t.Errorf("SCG-000002 used %q, want the forecast and the alerts", s2.Used)
	}
	if s4.QuerySource != "function_name" || s4.Query != "get price history" {
		t.Errorf("SCG-000004 query %q from %s", s4.Query, s4.QuerySource)
	}
	if rep.Samples[0].GoldMatch != "endpoint_id" || rep.Samples[0].EndpointRank != 1 {
		t.Errorf("SCG-000001: %+v", rep.Samples[0])
	}
	var b bytes.Buffer
	if err := WriteTables(&b, rep); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "tables.golden.md"), b.Bytes(), *update)
}
