package realcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sccg/internal/atomicfile"
	"slices"
	"strings"
	"time"

	"sccg/evaluate"
	"sccg/internal/backoff"
	"sccg/release"
	"sccg/store"
)

// Defaults: small on purpose, a real call costs someone something.
const (
	DefaultMaxCalls  = 60
	DefaultPositives = 5
	DefaultNegatives = 3
	DefaultRate      = 1.0 // requests per second per host
	DefaultRetries   = 2
	DefaultTimeout   = 15 * time.Second
	DefaultMaxWait   = 30 * time.Second
	DefaultBackoff   = 2 * time.Second
)

// Options configure a real-call validation.
type Options struct {
	Bench     []release.Record
	BenchPath string
	// Results are the scored completions of every results path (ResultPaths).
	Results     []evaluate.Result
	ResultPaths []string
	// AllowHosts are hosts whose requests may be sent though the crawled metadata
	// does not mark their service FREE (other ecosystems carry no pricing).
	AllowHosts []string
	// Resolve maps a host to the base URL its requests go to instead (a stand-in:
	// plain http and a loopback address are allowed there).
	Resolve map[string]string
	// Key is the credential's value, read from the environment variable KeyEnv by
	// the caller; it is sent only in the headers a service documents and written
	// nowhere.
	Key    string
	KeyEnv string
	// Pricing returns the crawled pricing of the API on a host, for records that
	// carry none (a published release); nil means none is known.
	Pricing func(host string) string

	MaxCalls  int     // total requests, retries and redirects included; default DefaultMaxCalls
	Positives int     // Mock-positive requests per API; default DefaultPositives
	Negatives int     // Mock-negative requests per API; default DefaultNegatives
	Rate      float64 // requests per second per host; default DefaultRate
	Retries   int     // retries of a 429 or 5xx answer; default DefaultRetries (negative: none)
	Timeout   time.Duration
	MaxWait   time.Duration // longest Retry-After honoured; default DefaultMaxWait
	Backoff   time.Duration // first wait before a retry without Retry-After; default DefaultBackoff
	Seed      uint64        // of the per-API sample

	// Live sends; without it the run is a dry run that plans and sends nothing.
	Live bool

	Now   func() time.Time
	Sleep func(context.Context, time.Duration) error
}

func (o Options) withDefaults() Options {
	if o.MaxCalls <= 0 {
		o.MaxCalls = DefaultMaxCalls
	}
	if o.Positives <= 0 {
		o.Positives = DefaultPositives
	}
	if o.Negatives <= 0 {
		o.Negatives = DefaultNegatives
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = backoff.Sleep
	}
	hosts := make([]string, 0, len(o.AllowHosts))
	for _, h := range o.AllowHosts {
		hosts = append(hosts, normHost(h))
	}
	o.AllowHosts = hosts
	res := make(map[string]string, len(o.Resolve))
	for h, u := range o.Resolve {
		res[normHost(h)] = u
	}
	o.Resolve = res
	return o
}

// RunArgs are the options as a run records them: never the credential.
func (o Options) RunArgs() map[string]any {
	return map[string]any{"bench": o.BenchPath, "results": o.ResultPaths, "allow_hosts": o.AllowHosts,
		"resolve": resolveList(o.Resolve), "key_env": o.KeyEnv, "max_calls": o.MaxCalls, "positives": o.Positives,
		"negatives": o.Negatives, "rate": o.Rate, "retries": o.Retries, "timeout": o.Timeout.String(),
		"max_wait": o.MaxWait.String(), "seed": o.Seed, "live": o.Live}
}

func resolveList(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for h, u := range m {
		out = append(out, h+"="+u)
	}
	slices.Sort(out)
	return out
}

// ParseResolve reads HOST=URL: the host's requests go to URL (http or https, with
// a host; a path is a prefix).
func ParseResolve(v string) (string, string, error) {
	h, u, ok := strings.Cut(v, "=")
	h = normHost(h)
	if !ok || h == "" {
		return "", "", fmt.Errorf("--resolve %q: want HOST=URL", v)
	}
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" || pu.RawQuery != "" || pu.User != nil {
		return "", "", fmt.Errorf("--resolve %q: want an http(s) base URL with a host after =", v)
	}
	return h, strings.TrimSuffix(u, "/"), nil
}

// Run plans the validation and, when o.Live, sends it, as one recorded run of the
// realcall stage: calls are stored as they complete (a rerun reuses them and
// sends only what is left), and the report is stored at the end.
func Run(ctx context.Context, st *store.Store, o Options) (*Report, error) {
	o = o.withDefaults()
	resolve := map[string]*url.URL{}
	for h, u := range o.Resolve {
		pu, err := url.Parse(u)
		if err != nil {
			return nil, fmt.Errorf("realcall: resolve %s: %w", h, err)
		}
		resolve[h] = pu
	}
	if o.Pricing == nil && st != nil {
		p, err := storePricing(ctx, st)
		if err != nil {
			return nil, err
		}
		o.Pricing = p
	}
	return store.RecordRun(ctx, st, store.StageRealCall, o.RunArgs(), func(runID int64) (*Report, error) {
		rep := &Report{Kind: Kind, Live: o.Live, Bench: o.BenchPath, Results: o.ResultPaths, Excluded: map[string]int{},
			Options: Settings{MaxCalls: o.MaxCalls, Positives: o.Positives, Negatives: o.Negatives, Rate: o.Rate,
				Retries: o.Retries, Seed: o.Seed, AllowHosts: o.AllowHosts, Resolve: resolveList(o.Resolve),
				KeyEnv: o.KeyEnv, KeyGiven: o.Key != ""}}
		svcs := plan(&o, rep)
		stored, err := st.RealCalls(ctx)
		if err != nil {
			return nil, err
		}
		x := &execution{o: &o, st: st, runID: runID, rep: rep, stored: stored, calls: map[string]*Call{},
			b: &budget{max: o.MaxCalls}}
		if o.Live {
			x.send = newSender(&o, resolve, x.b)
			defer x.send.close()
		}
		runErr := x.run(ctx, svcs)
		rep.Budget.Max, rep.Budget.Used = x.b.max, x.b.used
		finish(rep, svcs)
		if runErr != nil {
			return rep, runErr
		}
		b, err := json.Marshal(rep)
		if err != nil {
			return rep, fmt.Errorf("realcall: encode report: %w", err)
		}
		return rep, st.Update(ctx, func(tx *store.Tx) error { return tx.SaveRealCallReport(ctx, runID, o.Live, b) })
	})
}

// storePricing reads the pricing of every crawled API by host.
func storePricing(ctx context.Context, st *store.Store) (func(string) string, error) {
	apis, err := st.APIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("realcall: pricing of the crawled APIs: %w", err)
	}
	by := map[string]string{}
	for _, a := range apis {
		if h := normHost(a.Host); h != "" && a.Pricing != "" {
			if _, ok := by[h]; !ok {
				by[h] = a.Pricing
			}
		}
	}
	return func(h string) string { return by[h] }, nil
}

// execution sends (or, in a dry run, counts) the planned calls.
type execution struct {
	o      *Options
	st     *store.Store
	runID  int64
	rep    *Report
	stored map[string]store.RealCall
	calls  map[string]*Call
	b      *budget
	send   *sender // nil in a dry run
}

// run screens every planned service with its gold request, then sends the
// samples of the reachable ones round-robin (Mock-positive first), so a budget
// that runs out leaves every service a share.
func (x *execution) run(ctx context.Context, svcs []*service) error {
	for _, s := range svcs {
		if s.gold == nil {
			continue
		}
		c, err := x.do(ctx, s.gold)
		if err != nil {
			return err
		}
		s.Gold = c.Key
		switch {
		case !x.o.Live:
			s.Status = ServicePlanned
		case c.OK():
			s.Status = ServiceReachable
		case !c.Sent:
			s.Status, s.Reason, s.Detail = ServiceScreened, ReasonBudget, "its gold request was not sent"
		default:
			s.Status, s.Reason = ServiceScreened, ReasonUnreachable
			if c.Answered() {
				s.Detail = fmt.Sprintf("gold request answered %d", c.Status)
			} else {
				s.Detail = "gold request failed: " + c.Error
			}
		}
		if s.Status == ServiceScreened {
			for _, p := range append(s.pos, s.neg...) {
				markItems(x.rep, p, s.Reason, s.Detail)
			}
			s.pos, s.neg = nil, nil
		}
	}
	for _, group := range []func(*service) []*planned{func(s *service) []*planned { return s.pos }, func(s *service) []*planned { return s.neg }} {
		for i := 0; ; i++ {
			any := false
			for _, s := range svcs {
				ps := group(s)
				if i >= len(ps) {
					continue
				}
				any = true
				if _, err := x.do(ctx, ps[i]); err != nil {
					return err
				}
			}
			if !any {
				break
			}
		}
	}
	return nil
}

// do sends one planned request (once per distinct call: a Mock-positive request
// equal to the gold request takes its outcome), or takes it from the store.
func (x *execution) do(ctx context.Context, p *planned) (*Call, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c := x.calls[p.key]; c != nil {
		x.attach(p, c)
		return c, nil
	}
	c := &Call{Key: p.key, Group: p.group, API: p.api, Method: p.req.Method, URL: p.req.URL.String(),
		Headers: p.req.Shown, Notes: p.req.Notes}
	x.calls[p.key] = c
	if sc, ok := x.stored[p.key]; ok {
		c.Sent, c.Resumed, c.Status, c.Attempts, c.LatencyMS = true, true, sc.Status, sc.Attempts, sc.LatencyMS
		c.BodySHA256, c.BodyBytes, c.Error = sc.BodySHA256, sc.BodyBytes, sc.Error
		x.b.used += sc.Attempts
		x.attach(p, c)
		return c, nil
	}
	if x.send == nil { // a dry run
		x.rep.Budget.Planned++
		x.attach(p, c)
		return c, nil
	}
	err := x.send.send(ctx, p.req, c)
	if errors.Is(err, errBudget) {
		delete(x.calls, p.key) // not sent: whoever asks for it next is refused too
		markItems(x.rep, p, ReasonBudget, "")
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	host := p.req.Host
	sc := store.RealCall{Key: c.Key, API: c.API, Host: host, Method: c.Method, URL: c.URL, Status: c.Status,
		Attempts: c.Attempts, LatencyMS: c.LatencyMS, BodySHA256: c.BodySHA256, BodyBytes: c.BodyBytes, Error: c.Error,
		RunID: x.runID}
	if err := x.st.Update(ctx, func(tx *store.Tx) error { return tx.SaveRealCall(ctx, sc) }); err != nil {
		return nil, err
	}
	x.attach(p, c)
	return c, nil
}

func (x *execution) attach(p *planned, c *Call) {
	p.call = c
	for _, i := range p.items {
		x.rep.Items[i].Call = c.Key
	}
}

// finish fills the report's calls, rates, services and exclusion counts.
func finish(rep *Report, svcs []*service) {
	calls := map[string]*Call{}
	for _, s := range svcs {
		for _, p := range append(append([]*planned{s.gold}, s.pos...), s.neg...) {
			if p != nil && p.call != nil {
				calls[p.call.Key] = p.call
			}
		}
	}
	type tally struct{ ok, n, failed int }
	groups := map[string]*tally{GroupGold: {}, GroupPositive: {}, GroupNegative: {}}
	perAPI := map[string]map[string]*tally{}
	counted := map[string]bool{} // group+call: a call counts once per group
	for _, it := range rep.Items {
		if it.Reason != "" {
			rep.Excluded[it.Reason]++
			continue
		}
		c := calls[it.Call]
		if c == nil || !c.Sent || counted[it.Group+it.Call] {
			continue
		}
		counted[it.Group+it.Call] = true
		ts := []*tally{groups[it.Group]}
		if it.Group != GroupGold {
			if perAPI[it.API] == nil {
				perAPI[it.API] = map[string]*tally{GroupPositive: {}, GroupNegative: {}}
			}
			ts = append(ts, perAPI[it.API][it.Group])
		}
		for _, t := range ts {
			switch {
			case c.OK():
				t.ok++
				t.n++
			case c.Answered():
				t.n++
			default:
				t.failed++
			}
		}
	}
	rate := func(t *tally) Rate { return newRate(t.ok, t.n, t.failed) }
	rep.Gold, rep.Positive, rep.Negative = rate(groups[GroupGold]), rate(groups[GroupPositive]), rate(groups[GroupNegative])
	for _, s := range svcs {
		rep.Services = append(rep.Services, s.Service)
		if s.Status == ServiceReachable {
			rep.Answered = append(rep.Answered, s.API)
		}
		t := perAPI[s.API]
		if t == nil {
			continue
		}
		a := APIRates{API: s.API, Host: s.Host, Positive: rate(t[GroupPositive]), Negative: rate(t[GroupNegative])}
		rep.PerAPI = append(rep.PerAPI, a)
		if a.Positive.N > 0 {
			rep.APIsWithPositive++
			if a.Positive.OK > 0 {
				rep.APIsWithSuccess++
			}
		}
	}
	keys := make([]string, 0, len(calls))
	for k := range calls {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		rep.Calls = append(rep.Calls, *calls[k])
	}
}

// File names the report in an output directory.
const File = "realcall.json"

// Write writes the report to DIR/realcall.json.
func Write(dir string, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write real-call report: %w", err)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("encode real-call report: %w", err)
	}
	return atomicfile.Write(filepath.Join(dir, File), append(b, '\n'))
}

// Read reads a real-call report (a realcall.json, or the one in a directory).
func Read(path string) (*Report, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, File)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read real-call report: %w", err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil || rep.Kind != Kind {
		return nil, fmt.Errorf("read real-call report %s: not an sccg realcall report", path)
	}
	return &rep, nil
}

// ReadResults reads the scored completions of a path: an sccg eval output
// directory or results.jsonl, or a directory holding such directories at any
// depth (an experiment grid, a demo's output). It returns the results.jsonl files
// read.
func ReadResults(path string) ([]evaluate.Result, []string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read results: %w", err)
	}
	if !st.IsDir() {
		rs, err := evaluate.ReadResults(path)
		return rs, []string{path}, err
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "results.jsonl" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read results under %s: %w", path, err)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("read results: no results.jsonl in or under %s (want sccg eval output)", path)
	}
	slices.Sort(files)
	var out []evaluate.Result
	for _, f := range files {
		rs, err := evaluate.ReadResults(f)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, rs...)
	}
	return out, files, nil
}
