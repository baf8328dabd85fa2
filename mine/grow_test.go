package mine_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"sccg/internal/replay"
	"sccg/mine"
	"sccg/store"
)

// searchQueries lists the code-search queries a replay server received, from the
// n-th request on.
func searchQueries(t *testing.T, srv *replay.Server, from int) []string {
	t.Helper()
	var out []string
	for _, r := range srv.Log.All()[from:] {
		u, err := url.Parse(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		if u.Path == "/search/code" {
			out = append(out, u.Query().Get("q"))
		}
	}
	return out
}

// TestMineSearchesOnlyNewAPIs mines GitHub for the store's APIs, adds an API, and
// mines again: the second run sends the new API's searches only, and a third sends
// none.
func TestMineSearchesOnlyNewAPIs(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	st := mineTestStore(t, clock)
	// Start with weather-now alone: jokes-hub comes later, as a new description would.
	jokes, err := st.APIBySlug(ctx, "fixture", "jokes-hub")
	if err != nil {
		t.Fatal(err)
	}
	jokesEps, err := st.Endpoints(ctx, jokes.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(ctx, func(tx *store.Tx) error { return tx.DeleteAPI(ctx, jokes.ID) }); err != nil {
		t.Fatal(err)
	}
	srv := mineTestServer(t, clock, replay.GitHubOptions{Faults: &replay.GitHubFaults{}})
	if _, err := mine.Mine(ctx, st, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	first := searchQueries(t, srv, 0)
	for _, q := range first {
		if strings.Contains(q, "jokes-hub") {
			t.Fatalf("first run searched for an API not in the store: %q", q)
		}
	}

	err = st.Update(ctx, func(tx *store.Tx) error {
		jokes.ID = 0
		for i := range jokesEps {
			jokesEps[i].ID = 0
		}
		_, err := tx.SaveAPI(ctx, jokes, jokesEps)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	n := srv.Log.Len()
	if _, err := mine.Mine(ctx, st, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	second := searchQueries(t, srv, n)
	if len(second) == 0 {
		t.Fatal("second run searched nothing for the new API")
	}
	for _, q := range second {
		if !strings.Contains(q, "jokes-hub.p.rapidapi.com") {
			t.Errorf("second run searched again for an API already searched: %q", q)
		}
	}

	n = srv.Log.Len()
	if _, err := mine.Mine(ctx, st, mineTestOptions(srv, clock)); err != nil {
		t.Fatal(err)
	}
	if again := searchQueries(t, srv, n); len(again) > 0 {
		t.Errorf("an unchanged store's third run sent %d searches: %q", len(again), again)
	}
}
