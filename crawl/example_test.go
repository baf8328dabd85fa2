package crawl_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"sccg/crawl"
	"sccg/internal/replay"
	"sccg/store"
)

// Crawling the embedded RapidAPI snapshot, as `sccg demo` does: start the replay
// hub and point the crawl at it.
func ExampleRun() {
	ctx := context.Background()
	h, err := replay.RapidAPI(replay.RapidAPIOptions{NoFaults: true})
	if err != nil {
		panic(err)
	}
	hub := replay.Start(h)
	defer hub.Close()

	dir, _ := os.MkdirTemp("", "crawl-example")
	defer os.RemoveAll(dir)
	s, err := store.Open(ctx, filepath.Join(dir, "sccg.db"))
	if err != nil {
		panic(err)
	}
	defer s.Close()

	sum, err := crawl.Run(ctx, s, crawl.Options{BaseURL: hub.URL, Categories: []string{"Finance"}})
	fmt.Println(sum.Saved, "APIs,", sum.Endpoints, "endpoints, error:", err)
	eps, _ := s.EndpointsByHost(ctx, "iban-validator.p.rapidapi.com")
	for _, e := range eps {
		fmt.Println(e.Method, e.Route, e.ContentType, e.Params[0].Location, e.Params[0].Name)
	}
	// Output:
	// 4 APIs, 9 endpoints, error: <nil>
	// POST /validate application/x-www-form-urlencoded form iban
}
