package pipeline

import (
	"context"
	"fmt"
	"time"

	"sccg/internal/replay"
)

// Replay is the pair of local replay servers a build can run against instead of
// the live sources: the RapidAPI Hub snapshot and the synthetic GitHub corpus,
// both embedded in the binary. The demo and the golden tests use it.
type Replay struct {
	Hub    *replay.Server
	GitHub *replay.Server
}

// StartReplay starts both replay servers without their scripted faults, with
// unlimited rate budgets and a fixed server clock, so a build against them is fast
// and reproducible. Close them when done.
func StartReplay() (*Replay, error) {
	rh, err := replay.RapidAPI(replay.RapidAPIOptions{NoFaults: true})
	if err != nil {
		return nil, fmt.Errorf("replay hub: %w", err)
	}
	gh, err := replay.GitHub(replay.GitHubCorpus(), replay.GitHubOptions{SearchPerMinute: -1, CorePerHour: -1, NoRequestFaults: true,
		Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		return nil, fmt.Errorf("replay github: %w", err)
	}
	return &Replay{Hub: replay.Start(rh), GitHub: replay.Start(gh)}, nil
}

// Apply points o's crawl and mine at the replay servers (crawl discovers every API
// of the snapshot; mine searches the corpus with one replay token).
func (r *Replay) Apply(o *Options) {
	o.Docs, o.Local = nil, ""
	o.Crawl.BaseURL = r.Hub.URL
	o.Crawl.RPS = 0
	o.Crawl.Sleep = func(context.Context, time.Duration) error { return nil }
	o.Mine.APIBase = r.GitHub.URL + "/"
	o.Mine.Tokens = []string{"replay-token"}
	o.Mine.SearchPerMinute = -1
	if o.Mine.Seed == 0 {
		o.Mine.Seed = 1
	}
}

// Close stops both servers.
func (r *Replay) Close() {
	r.Hub.Close()
	r.GitHub.Close()
}
