package mine

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"sccg/store"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A store that cannot be read must stop get before it asks the server: a failed
// lookup of an earlier fetch is not the absence of one.
func TestGetReportsStoreErrors(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "mine.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	opts := Options{HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, errors.New("no request expected")
	})}}
	opts.defaults()
	base, _ := url.Parse(canonicalAPI)
	stats := &Stats{}
	m := &ghMiner{st: st, opts: opts, base: base, stats: stats, pool: newPool(nil, 0, opts.Clock, 1, stats)}
	sent := 0
	_, _, err = m.get(ctx, "repos/o/r", false, &sent)
	if err == nil || !strings.Contains(err.Error(), "fetch "+canonicalAPI+"repos/o/r") {
		t.Errorf("err = %v, want the failed fetch lookup reported", err)
	}
	if sent != 0 {
		t.Errorf("sent %d requests after the store failed, want 0", sent)
	}
}
