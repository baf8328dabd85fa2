package realcall

import (
	"net/netip"
	"testing"

	"sccg/evaluate"
)

func TestRebuild(t *testing.T) {
	cred := credentials{key: testKey, env: "RAPIDAPI_KEY"}
	tests := []struct {
		name   string
		c      evaluate.Captured
		cred   credentials
		url    string // "" when excluded
		reason string
		header map[string]string // shown
	}{
		{"query of the URL, params= after it", get("https://a.p.rapidapi.com/x?q=1", [2]string{"n", "two words"}), cred,
			"https://a.p.rapidapi.com/x?q=1&n=two+words", "",
			map[string]string{"Accept": "application/json", "X-Rapidapi-Host": "a.p.rapidapi.com", "X-Rapidapi-Key": "$RAPIDAPI_KEY"}},
		{"credentials in the query are left out", get("https://a.p.rapidapi.com/x?apiKey=abc&q=1", [2]string{"token", "<redacted>"}), credentials{},
			"https://a.p.rapidapi.com/x?q=1", "", map[string]string{"Accept": "application/json", "X-Rapidapi-Host": "a.p.rapidapi.com"}},
		{"a string params=", withRaw(get("https://h.example/x"), "a=1&b=2"), credentials{}, "https://h.example/x?a=1&b=2", "", nil},
		{"no scheme", get("h.example/x"), credentials{}, "https://h.example/x", "", nil},
		{"fragment dropped", get("https://h.example/x#top"), credentials{}, "https://h.example/x", "", nil},
		{"HEAD kept", captured("HEAD", "https://h.example/x", nil, nil), credentials{}, "https://h.example/x", "", nil},
		{"DELETE", captured("DELETE", "https://h.example/x", nil, nil), cred, "", ReasonMethod, nil},
		{"a body", withBody(get("https://h.example/x")), cred, "", ReasonBody, nil},
		{"old results with params", oldStyle(get("https://h.example/x", [2]string{"q", "1"})), cred, "", ReasonNoValues, nil},
		{"old results without params", oldStyle(get("https://h.example/x?q=1")), credentials{}, "https://h.example/x?q=1", "", nil},
		{"write in the route", get("https://h.example/v1/createUser"), cred, "", ReasonWrite, nil},
		{"write in a parameter name", get("https://h.example/x", [2]string{"delete_after", "1"}), cred, "", ReasonWrite, nil},
		{"write in a value", get("https://h.example/x?action=post"), cred, "", ReasonWrite, nil},
		{"a noun is no write", get("https://h.example/posts/orders?postcode=1&address=x&author=y"), cred,
			"https://h.example/posts/orders?postcode=1&address=x&author=y", "", nil},
		{"ftp", get("ftp://h.example/x"), cred, "", ReasonBadURL, nil},
		{"user info", get("https://u:p@h.example/x"), cred, "", ReasonBadURL, nil},
		{"loopback literal", get("http://127.0.0.1:8080/x"), cred, "", ReasonPrivate, nil},
		{"metadata address", get("http://169.254.169.254/latest"), cred, "", ReasonPrivate, nil},
		{"IPv6 loopback", get("http://[::1]/x"), cred, "", ReasonPrivate, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, x := rebuild(tc.c, tc.cred)
			if tc.reason != "" {
				if x == nil || x.Reason != tc.reason {
					t.Fatalf("got %+v, %+v; want excluded: %s", r, x, tc.reason)
				}
				return
			}
			if x != nil {
				t.Fatalf("excluded: %+v", x)
			}
			if got := r.URL.String(); got != tc.url {
				t.Errorf("URL %s, want %s", got, tc.url)
			}
			for k, v := range tc.header {
				if r.Shown[k] != v {
					t.Errorf("header %s shown %q, want %q (all %v)", k, r.Shown[k], v, r.Shown)
				}
			}
			if tc.cred.key != "" && rapidAPIHost(r.Host) && r.Header.Get("X-RapidAPI-Key") != tc.cred.key {
				t.Errorf("key not injected: %v", r.Header)
			}
			for k, v := range r.Shown {
				if v == testKey {
					t.Errorf("the key is shown in header %s", k)
				}
			}
		})
	}
}

func withRaw(c evaluate.Captured, raw string) evaluate.Captured {
	c.Replay.ParamsRaw = raw
	return c
}

func TestPublicAddr(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		public bool
	}{
		{"93.184.216.34", true}, {"2606:2800:220:1::1", true},
		{"127.0.0.1", false}, {"10.1.2.3", false}, {"172.16.0.1", false}, {"192.168.0.1", false}, {"169.254.169.254", false},
		{"100.64.0.1", false}, {"0.0.0.0", false}, {"::1", false}, {"fe80::1", false}, {"fc00::1", false},
		{"::ffff:127.0.0.1", false}, {"224.0.0.1", false}, {"198.18.0.1", false},
	} {
		if got := publicAddr(netip.MustParseAddr(tc.addr)); got != tc.public {
			t.Errorf("publicAddr(%s) = %v, want %v", tc.addr, got, tc.public)
		}
	}
}
