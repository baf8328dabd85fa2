package realcall

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sccg/evaluate"
	"sccg/evaluate/sandbox"
	"sccg/internal/storetest"
	"sccg/release"
	"sccg/store"
)

// testKey is the credential the tests pass; it must never be written anywhere.
const testKey = "k3y-must-not-leak-5b1e"

// standIn is a loopback server standing in for real services (mapped with
// Resolve): it answers by path, and records every request.
type standIn struct {
	t   *testing.T
	srv *httptest.Server
	mu  sync.Mutex
	got []seen
	// answer, when set, answers a request first (ok false: the default answer).
	answer func(w http.ResponseWriter, r *http.Request, n int) bool
	counts map[string]int
}

type seen struct {
	Method, Host, Path, Query string
	Header                    http.Header
	At                        time.Time
}

func newStandIn(t *testing.T) *standIn {
	s := &standIn{t: t, counts: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, seen{r.Method, r.Host, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), time.Now()})
		s.counts[r.Host+r.URL.Path]++
		n := s.counts[r.Host+r.URL.Path]
		answer := s.answer
		s.mu.Unlock()
		if answer != nil && answer(w, r, n) {
			return
		}
		switch {
		case strings.HasPrefix(r.URL.Path, "/missing"):
			http.Error(w, "no such endpoint", http.StatusNotFound)
		case strings.HasPrefix(r.Host, "down."):
			http.Error(w, "down", http.StatusServiceUnavailable)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"ok":true,"path":%q}`, r.URL.Path)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *standIn) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.got...)
}

// rec is a benchmark record of api on host with a GET endpoint route.
func rec(id, api, host, route, pricing string) release.Record {
	r := release.Record{SampleID: id, APIName: api, APIHost: host, Language: "python",
		APIMetadata: release.Metadata{URL: "https://" + host + route, Method: "GET", Route: route, DocMatchType: "url",
			Headers: map[string]string{"x-rapidapi-host": host}}}
	if pricing != "" {
		r.Extra = map[string]json.RawMessage{"api_info": json.RawMessage(fmt.Sprintf(`{"pricing":%q}`, pricing))}
	}
	return r
}

// get is a captured GET of url with query pairs, as sccg eval records it now.
func get(url string, pairs ...[2]string) evaluate.Captured {
	return captured("GET", url, map[string]string{"X-RapidAPI-Key": "<redacted>", "Accept": "application/json"}, pairs)
}

func captured(method, url string, headers map[string]string, pairs [][2]string) evaluate.Captured {
	q := sandbox.Request{Lib: "requests", Method: method, URL: url, Headers: headers, ParamValues: pairs}
	if len(pairs) > 0 {
		var keys []string
		for _, p := range pairs {
			keys = append(keys, p[0])
		}
		q.Params, _ = json.Marshal(keys)
	}
	return evaluate.ParseRequest(q)
}

// result is a scored completion: gold (model "gold"), Mock-positive or negative.
func result(id, setting, model string, index int, mock bool, reqs ...evaluate.Captured) evaluate.Result {
	r := evaluate.Result{SampleID: id, Setting: setting, Model: model, SampleIndex: index, Requests: reqs}
	if mock {
		r.Mock = 1
	}
	if reqs == nil {
		r.Requests = []evaluate.Captured{}
	}
	return r
}

type fixture struct {
	bench   []release.Record
	results []evaluate.Result
}

// world is a benchmark of five services and results exercising every filter.
func world() fixture {
	w := "weather.p.rapidapi.com"
	f := fixture{bench: []release.Record{
		rec("W1", "weather", w, "/current", "FREE"),
		rec("W2", "weather", w, "/forecast/{city}", "FREE"),
		rec("P1", "paidapi", "paid.p.rapidapi.com", "/quote", "PAID"),
		rec("O1", "otherhub", "api.other.example", "/v1/items", ""),
		rec("N1", "nopricing", "np.p.rapidapi.com", "/x", ""),
		rec("D1", "downapi", "down.p.rapidapi.com", "/status", "FREE"),
		rec("I1", "intranet", "192.168.1.5", "/x", ""),
		rec("G1", "goldonly", "g.p.rapidapi.com", "/g", "FREE"),
	}}
	f.results = []evaluate.Result{
		result("W1", "gold", "gold", 0, true, get("https://"+w+"/current", [2]string{"city", "London"})),
		result("W2", "gold", "gold", 0, true, get("https://"+w+"/forecast/Paris")),
		result("P1", "gold", "gold", 0, true, get("https://paid.p.rapidapi.com/quote")),
		result("O1", "gold", "gold", 0, true, get("https://api.other.example/v1/items?limit=2")),
		result("N1", "gold", "gold", 0, true, get("https://np.p.rapidapi.com/x")),
		result("D1", "gold", "gold", 0, true, get("https://down.p.rapidapi.com/status")),
		result("I1", "gold", "gold", 0, true, get("http://192.168.1.5/x")),
		result("G1", "gold", "gold", 0, true, get("https://g.p.rapidapi.com/g")),
		result("I1", "intent", "m1", 0, true, get("http://192.168.1.5/x?y=1")),
		// Mock-positive
		result("W1", "intent", "m1", 0, true, get("https://"+w+"/current", [2]string{"city", "Oslo"})),
		result("W1", "intent", "m1", 1, true, get("https://"+w+"/current", [2]string{"city", "Oslo"})), // duplicate
		result("W2", "intent", "m1", 0, true, get("https://"+w+"/forecast/Rome", [2]string{"api_key", "<redacted>"})),
		result("O1", "intent", "m1", 0, true, get("https://api.other.example/v1/items")),
		result("P1", "intent", "m1", 0, true, get("https://paid.p.rapidapi.com/quote")),
		result("D1", "intent", "m1", 0, true, get("https://down.p.rapidapi.com/status?x=1")),
		// Mock-negative, each excluded for its own reason but the last two
		result("W1", "intent", "m2", 0, false),
		result("W1", "intent", "m2", 1, false, captured("POST", "https://"+w+"/current", nil, nil)),
		result("W1", "intent", "m2", 2, false, get("https://"+w+"/orders/delete")),
		result("W1", "intent", "m2", 3, false, get("https://"+w+"/current", [2]string{"action", "sendMessage"})),
		result("W1", "intent", "m2", 4, false, get("https://example.com/test")),
		result("W1", "intent", "m2", 5, false, get("https://10.0.0.7/current")),
		result("W1", "intent", "m2", 6, false, withBody(get("https://"+w+"/current"))),
		result("W1", "intent", "m2", 7, false, oldStyle(get("https://"+w+"/current", [2]string{"city", "x"}))),
		result("W1", "intent", "m2", 8, false, get("https://"+w+"/missing")),
		result("W1", "intent", "m2", 9, false, get("https://"+w+"/history")),
		result("ZZ", "intent", "m2", 0, false, get("https://"+w+"/current")),
	}
	return f
}

func withBody(c evaluate.Captured) evaluate.Captured {
	c.Replay.Body = true
	return c
}

// oldStyle is a request as results written before Replay record it.
func oldStyle(c evaluate.Captured) evaluate.Captured {
	c.Replay = nil
	return c
}

func (f fixture) options(s *standIn, live bool) Options {
	res := map[string]string{}
	for _, h := range []string{"weather.p.rapidapi.com", "paid.p.rapidapi.com", "api.other.example", "np.p.rapidapi.com", "down.p.rapidapi.com"} {
		res[h] = s.srv.URL
	}
	return Options{Bench: f.bench, Results: f.results, AllowHosts: []string{"API.other.example", "192.168.1.5"}, Resolve: res,
		Key: testKey, KeyEnv: "RAPIDAPI_KEY", Live: live, Rate: 1000, Backoff: time.Millisecond, MaxWait: time.Second}
}

func itemsOf(rep *Report) map[string]Item {
	out := map[string]Item{}
	for _, it := range rep.Items {
		out[fmt.Sprintf("%s/%s/%s#%d", it.SampleID, it.Setting, it.Model, it.SampleIndex)] = it
	}
	return out
}

func TestDryRunPlansAndSendsNothing(t *testing.T) {
	s := newStandIn(t)
	st := storetest.Open(t)
	f := world()
	rep, err := Run(context.Background(), st, f.options(s, false))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.requests()); n != 0 {
		t.Fatalf("a dry run sent %d requests", n)
	}
	items := itemsOf(rep)
	want := map[string]string{
		"W1/gold/gold#0": "", "W2/gold/gold#0": ReasonDuplicate, "W1/intent/m1#0": "", "W1/intent/m1#1": ReasonDuplicate,
		"W2/intent/m1#0": "", "O1/gold/gold#0": "", "O1/intent/m1#0": "",
		"P1/gold/gold#0": ReasonNotFree, "P1/intent/m1#0": ReasonNotFree, "N1/gold/gold#0": ReasonNotFree,
		"D1/gold/gold#0": "", "D1/intent/m1#0": "",
		"W1/intent/m2#0": ReasonNoRequest, "W1/intent/m2#1": ReasonMethod, "W1/intent/m2#2": ReasonWrite,
		"W1/intent/m2#3": ReasonWrite, "W1/intent/m2#4": ReasonOtherHost, "W1/intent/m2#5": ReasonOtherHost,
		"I1/gold/gold#0": ReasonPrivate, "I1/intent/m1#0": ReasonPrivate, "G1/gold/gold#0": ReasonNotScreened,
		"W1/intent/m2#6": ReasonBody, "W1/intent/m2#7": ReasonNoValues, "W1/intent/m2#8": "", "W1/intent/m2#9": "",
		"ZZ/intent/m2#0": ReasonUnknownSample,
	}
	for k, reason := range want {
		it, ok := items[k]
		if !ok {
			t.Errorf("%s: no item", k)
			continue
		}
		if it.Reason != reason {
			t.Errorf("%s: reason %q (%s), want %q", k, it.Reason, it.Detail, reason)
		}
	}
	if len(items) != len(want) {
		t.Errorf("%d items, want %d", len(items), len(want))
	}
	// every exclusion is counted
	n := 0
	for _, v := range rep.Excluded {
		n += v
	}
	excluded := 0
	for _, r := range want {
		if r != "" {
			excluded++
		}
	}
	if n != excluded {
		t.Errorf("Excluded counts %d (%v), want %d", n, rep.Excluded, excluded)
	}
	// three services would be screened (weather, otherhub, downapi): 3 gold + 3
	// positives (the W1 one, W2, O1, D1 … minus none) + 2 negatives
	if rep.Budget.Planned != 3+4+2 {
		t.Errorf("planned calls %d, want 9", rep.Budget.Planned)
	}
	statuses := map[string]string{}
	for _, s := range rep.Services {
		statuses[s.API] = s.Status + " " + s.Reason
	}
	wantS := map[string]string{"weather": "planned ", "otherhub": "planned ", "downapi": "planned ",
		"paidapi": "screened_out not_free", "nopricing": "screened_out not_free", "intranet": "screened_out no_gold", "goldonly": "not_checked "}
	for k, v := range wantS {
		if statuses[k] != v {
			t.Errorf("service %s: %q, want %q", k, statuses[k], v)
		}
	}
	calls, err := st.RealCalls(context.Background())
	if err != nil || len(calls) != 0 {
		t.Errorf("a dry run stored calls: %v %v", calls, err)
	}
}

func TestLive(t *testing.T) {
	s := newStandIn(t)
	s.answer = func(w http.ResponseWriter, r *http.Request, n int) bool {
		switch {
		case r.URL.Path == "/forecast/Rome" && n == 1: // a 429 that says when to come back
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return true
		case r.URL.Path == "/v1/items" && n == 1: // a 5xx without Retry-After
			http.Error(w, "oops", http.StatusBadGateway)
			return true
		case r.URL.Path == "/history": // a redirect on the same host is followed
			http.Redirect(w, r, "/history/v2", http.StatusFound)
			return true
		}
		return false
	}
	st := storetest.Open(t)
	f := world()
	out := t.TempDir()
	rep, err := Run(context.Background(), st, f.options(s, true))
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, rep); err != nil {
		t.Fatal(err)
	}
	// gold: weather, otherhub and downapi screened; downapi answers 503 (retried)
	if rep.Gold.OK != 2 || rep.Gold.N != 3 {
		t.Errorf("gold %s, want 2/3", rep.Gold)
	}
	// positives: W1 Oslo, W2 Rome (after a 429), O1 (after a 502); D1's is screened out
	if rep.Positive.OK != 3 || rep.Positive.N != 3 {
		t.Errorf("positives %s, want 3/3", rep.Positive)
	}
	// negatives: /missing answers 404, /history redirects to /history/v2 (200)
	if rep.Negative.OK != 1 || rep.Negative.N != 2 {
		t.Errorf("negatives %s, want 1/2", rep.Negative)
	}
	if rep.APIsWithSuccess != 2 || rep.APIsWithPositive != 2 {
		t.Errorf("APIs with a success %d of %d, want 2 of 2", rep.APIsWithSuccess, rep.APIsWithPositive)
	}
	var down Service
	for _, sv := range rep.Services {
		if sv.API == "downapi" {
			down = sv
		}
	}
	if down.Status != ServiceScreened || down.Reason != ReasonUnreachable || !strings.Contains(down.Detail, "503") {
		t.Errorf("downapi: %+v, want screened out by its 503", down)
	}
	if rep.Excluded[ReasonUnreachable] != 1 {
		t.Errorf("items screened out with their service: %d, want 1 (D1's positive)", rep.Excluded[ReasonUnreachable])
	}
	for _, q := range s.requests() {
		if q.Method != http.MethodGet {
			t.Errorf("sent %s %s", q.Method, q.Path)
		}
		if strings.HasSuffix(q.Host, ".rapidapi.com") {
			if q.Header.Get("X-RapidAPI-Key") != testKey || q.Header.Get("X-RapidAPI-Host") != q.Host {
				t.Errorf("%s%s: RapidAPI headers %v", q.Host, q.Path, q.Header)
			}
		} else if q.Header.Get("X-RapidAPI-Key") != "" {
			t.Errorf("%s%s: the RapidAPI key went to another ecosystem", q.Host, q.Path)
		}
		if strings.Contains(q.Query, "api_key") || q.Header.Get("Accept") != "application/json" {
			t.Errorf("%s%s?%s: want the recorded headers without credentials", q.Host, q.Path, q.Query)
		}
	}
	counts := map[string]int{}
	for _, q := range s.requests() {
		counts[q.Path+"?"+q.Query]++
	}
	want := map[string]int{"/current?city=London": 1, "/current?city=Oslo": 1, "/forecast/Rome?": 2, "/v1/items?limit=2": 2,
		"/v1/items?": 1, "/status?": 3, "/missing?": 1, "/history?": 1, "/history/v2?": 1}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("%s sent %d times, want %d (all: %v)", k, counts[k], v, counts)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("sent %v, want %v", counts, want)
	}
	if rep.Budget.Used != len(s.requests()) {
		t.Errorf("budget used %d, requests %d", rep.Budget.Used, len(s.requests()))
	}
	for _, c := range rep.Calls {
		if c.Sent && c.Status != 0 && len(c.BodySHA256) != 64 {
			t.Errorf("%s: body hash %q", c.URL, c.BodySHA256)
		}
	}
	assertNoKey(t, st, out)
}

// assertNoKey fails when the credential appears in the output directory or the
// store's files.
func assertNoKey(t *testing.T, st *store.Store, dirs ...string) {
	t.Helper()
	st.Close()
	files, _ := filepath.Glob(st.Path() + "*")
	for _, d := range dirs {
		filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 2 {
		t.Fatalf("nothing to search for the key: %v", files)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(testKey)) {
			t.Errorf("the key leaked into %s", p)
		}
	}
}

func TestRedirectToAnotherHostRefused(t *testing.T) {
	other := newStandIn(t)
	s := newStandIn(t)
	s.answer = func(w http.ResponseWriter, r *http.Request, n int) bool {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.srv.URL+"/stolen", http.StatusFound)
		case "/renamed":
			http.Redirect(w, r, "http://evil.example/x", http.StatusMovedPermanently)
		default:
			return false
		}
		return true
	}
	h := "svc.p.rapidapi.com"
	f := fixture{bench: []release.Record{rec("S1", "svc", h, "/ok", "FREE")}, results: []evaluate.Result{
		result("S1", "gold", "gold", 0, true, get("https://"+h+"/ok")),
		result("S1", "x", "m", 0, false, get("https://"+h+"/away")),
		result("S1", "x", "m", 1, false, get("https://"+h+"/renamed")),
	}}
	o := f.options(s, true)
	o.Resolve = map[string]string{h: s.srv.URL}
	rep, err := Run(context.Background(), storetest.Open(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(other.requests()); n != 0 {
		t.Fatalf("followed a redirect to another host: %d requests there", n)
	}
	for _, c := range rep.Calls {
		if c.Group == GroupNegative && (c.Status/100 != 3 || !strings.Contains(c.Error, "another host")) {
			t.Errorf("%s: status %d, error %q; want the 3xx kept and the redirect refused", c.URL, c.Status, c.Error)
		}
	}
	if rep.Negative.OK != 0 || rep.Negative.N != 2 {
		t.Errorf("negatives %s, want 0/2", rep.Negative)
	}
}

func TestUnmappedLoopbackRefusedAtDial(t *testing.T) {
	s := newStandIn(t)
	// "localhost" is a name, so planning lets it through; the address it resolves
	// to is refused when dialled (as a name rebound to a private address would be).
	port := s.srv.Listener.Addr().(*net.TCPAddr).Port
	u := fmt.Sprintf("http://localhost:%d", port)
	f := fixture{bench: []release.Record{rec("L1", "local", "localhost", "/ping", "")}, results: []evaluate.Result{
		result("L1", "gold", "gold", 0, true, get(u+"/ping")),
		result("L1", "x", "m", 0, true, get(u+"/ping?q=1")),
	}}
	o := Options{Bench: f.bench, Results: f.results, AllowHosts: []string{"localhost"}, Live: true, Rate: 1000}
	rep, err := Run(context.Background(), storetest.Open(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.requests()); n != 0 {
		t.Fatalf("dialled a loopback address that was not mapped: %d requests", n)
	}
	if len(rep.Services) != 1 || rep.Services[0].Status != ServiceScreened || !strings.Contains(rep.Services[0].Detail, "not a public address") {
		t.Errorf("services %+v, want screened out: refused at dial", rep.Services)
	}
}

func TestBudget(t *testing.T) {
	s := newStandIn(t)
	f := world()
	o := f.options(s, true)
	o.MaxCalls = 4
	rep, err := Run(context.Background(), storetest.Open(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.requests()); n != 4 || rep.Budget.Used != 4 {
		t.Fatalf("sent %d (budget used %d), want the budget of 4", n, rep.Budget.Used)
	}
	if rep.Excluded[ReasonBudget] == 0 {
		t.Errorf("no item excluded for the budget: %v", rep.Excluded)
	}
	for _, it := range rep.Items {
		if it.Reason == "" && it.Call == "" {
			t.Errorf("item %s neither sent nor excluded", itemName(it))
		}
	}
}

func TestRateLimitPerHost(t *testing.T) {
	s := newStandIn(t)
	h := "svc.p.rapidapi.com"
	f := fixture{bench: []release.Record{rec("S1", "svc", h, "/a", "FREE")}, results: []evaluate.Result{
		result("S1", "gold", "gold", 0, true, get("https://"+h+"/a")),
	}}
	for i := range 3 {
		f.results = append(f.results, result("S1", "x", "m", i, true, get("https://"+h+"/a", [2]string{"i", fmt.Sprint(i)})))
	}
	o := f.options(s, true)
	o.Resolve = map[string]string{h: s.srv.URL}
	o.Rate = 10 // one request per 100 ms
	if _, err := Run(context.Background(), storetest.Open(t), o); err != nil {
		t.Fatal(err)
	}
	got := s.requests()
	if len(got) != 4 {
		t.Fatalf("%d requests, want 4", len(got))
	}
	// one request per 100 ms: the last leaves 300 ms after the first (the first,
	// held up by its dial, may arrive late and shorten the span seen here a little)
	if span := got[len(got)-1].At.Sub(got[0].At); span < 200*time.Millisecond {
		t.Errorf("4 requests within %s; the limit is one per 100ms", span)
	}
}

func TestRetryAfterTooLongIsNotWaited(t *testing.T) {
	s := newStandIn(t)
	s.answer = func(w http.ResponseWriter, r *http.Request, n int) bool {
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "quota", http.StatusTooManyRequests)
		return true
	}
	h := "svc.p.rapidapi.com"
	f := fixture{bench: []release.Record{rec("S1", "svc", h, "/a", "FREE")}, results: []evaluate.Result{
		result("S1", "gold", "gold", 0, true, get("https://"+h+"/a")),
		result("S1", "x", "m", 0, true, get("https://"+h+"/a?b=1")),
	}}
	o := f.options(s, true)
	o.Resolve = map[string]string{h: s.srv.URL}
	rep, err := Run(context.Background(), storetest.Open(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1: a Retry-After past MaxWait is not waited for", n)
	}
	if sv := rep.Services[0]; sv.Status != ServiceScreened || !strings.Contains(sv.Detail, "429") {
		t.Errorf("service %+v, want screened out by its 429", sv)
	}
}

func TestResumeAfterKill(t *testing.T) {
	s := newStandIn(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	served := 0
	s.answer = func(w http.ResponseWriter, r *http.Request, n int) bool {
		mu.Lock()
		defer mu.Unlock()
		served++
		if served == 6 {
			cancel() // the run is killed while its 6th request is answered
		}
		return false
	}
	st := storetest.Open(t)
	f := world()
	if _, err := Run(ctx, st, f.options(s, true)); err == nil {
		t.Fatal("a killed run reported no error")
	}
	first := len(s.requests())
	killed := s.requests()[5] // in flight when the run was killed: not stored, so sent again
	inFlight := killed.Host + killed.Path + "?" + killed.Query
	stored, err := st.RealCalls(context.Background())
	if err != nil || len(stored) < 3 {
		t.Fatalf("stored %d calls after the kill (%v), want the 3 completed before it", len(stored), err)
	}
	s.answer = nil
	rep, err := Run(context.Background(), st, f.options(s, true))
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]int{}
	for _, q := range s.requests() {
		sent[q.Host+q.Path+"?"+q.Query]++
	}
	for k, n := range sent {
		if n > 1 && !(k == inFlight && n == 2) && !strings.HasPrefix(k, "down.") {
			t.Errorf("%s sent %d times across the kill", k, n)
		}
	}
	resumed := 0
	for _, c := range rep.Calls {
		if c.Resumed {
			resumed++
		}
	}
	if resumed != len(stored) {
		t.Errorf("%d calls resumed, want the %d stored", resumed, len(stored))
	}
	if rep.Positive.N != 3 || rep.Negative.N != 2 || len(s.requests()) <= first {
		t.Errorf("the rerun did not finish the work: %s, %d requests", rep.Positive, len(s.requests()))
	}
}

// TestGoldOnlyScreen: given gold results only, every eligible service is
// screened with its gold request, within the same rules and budget, and the
// report says which answered.
func TestGoldOnlyScreen(t *testing.T) {
	s := newStandIn(t)
	f := world()
	var gold []evaluate.Result
	for _, r := range f.results {
		if r.Model == "gold" {
			gold = append(gold, r)
		}
	}
	f.results = gold
	tests := []struct {
		name     string
		maxCalls int
		sent     int
		gold     string
		answered []string
	}{
		// weather, otherhub, goldonly answer; downapi answers 503 (retried twice);
		// paidapi and nopricing are not free, intranet's address is private
		{"every eligible service", 0, 6, "3/4", []string{"goldonly", "otherhub", "weather"}},
		// the budget still bounds it, retries included: downapi's 503 takes three
		// calls, goldonly the fourth, the rest are not sent
		{"within the budget", 4, 4, "1/2", []string{"goldonly"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(s.requests())
			o := f.options(s, true)
			o.Resolve["g.p.rapidapi.com"] = s.srv.URL
			o.MaxCalls = tt.maxCalls
			rep, err := Run(context.Background(), storetest.Open(t), o)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.ScreenOnly {
				t.Error("a run of gold results only is not a screen")
			}
			if got := fmt.Sprintf("%d/%d", rep.Gold.OK, rep.Gold.N); got != tt.gold {
				t.Errorf("gold %s, want %s", rep.Gold, tt.gold)
			}
			if fmt.Sprint(rep.Answered) != fmt.Sprint(tt.answered) {
				t.Errorf("answered %v, want %v", rep.Answered, tt.answered)
			}
			if n := len(s.requests()) - before; n != tt.sent {
				t.Errorf("sent %d requests, want %d", n, tt.sent)
			}
			for _, q := range s.requests()[before:] {
				if q.Method != http.MethodGet {
					t.Errorf("sent %s %s", q.Method, q.Path)
				}
			}
			why := map[string]string{}
			for _, sv := range rep.Services {
				why[sv.API] = sv.Status + " " + sv.Reason
			}
			for api, want := range map[string]string{"paidapi": "screened_out " + ReasonNotFree, "intranet": "screened_out " + ReasonNoGold} {
				if why[api] != want {
					t.Errorf("%s: %q, want %q", api, why[api], want)
				}
			}
		})
	}
}
