package main

import (
	"strings"

	"sccg/internal/replay"
)

// The demo's real-call step: the snapshot's services stand in on a loopback
// server (every host mapped there with --resolve) and accept one demo key, which
// reaches the command as a variable of the demo's environment only.
const (
	demoSteps        = 6
	demoKeyEnv       = "SCCG_DEMO_RAPIDAPI_KEY"
	demoKey          = "demo-key-not-a-secret"
	demoDownHost     = "flight-tracker-live.p.rapidapi.com"  // a free service that is gone: its gold request screens it out
	demoFlakyHost    = "football-live-scores.p.rapidapi.com" // answers one 429 first, then normally
	demoRealcallRate = "20"
)

// standIns starts the stand-in services and returns the realcall step's
// arguments; the demo's environment gets the demo key.
func (d *demo) standIns(bench, evalDir, gridDir, out string) (*replay.Server, []string, error) {
	h, err := replay.Services(replay.ServicesOptions{Key: demoKey, Down: []string{demoDownHost},
		Faults: map[string][]replay.Fault{demoFlakyHost: {{Status: 429, RetryAfter: "1"}}}})
	if err != nil {
		return nil, nil, err
	}
	apis, err := replay.Catalog()
	if err != nil {
		return nil, nil, err
	}
	srv := replay.Start(h)
	args := []string{"realcall", "--db", d.e.db, "--bench", bench, "--results", evalDir, "--results", gridDir,
		"--key-env", demoKeyEnv, "--rate", demoRealcallRate, "--live", "--out", out}
	for _, a := range apis {
		args = append(args, "--resolve", strings.ToLower(a.Host)+"="+srv.URL)
	}
	env := *d.e
	getenv := env.getenv
	env.getenv = func(k string) string {
		if k == demoKeyEnv {
			return demoKey
		}
		return getenv(k)
	}
	d.e = &env
	return srv, args, nil
}
