package metrics

import (
	"context"
	"math"
	"reflect"
	"testing"
)

const refCode = `import requests

def get_quote(symbol, api_key):
    # fetch a quote
    url = "https://quotes.p.rapidapi.com/quote"
    params = {"symbol": symbol}
    resp = requests.get(url, params=params, headers={"X-RapidAPI-Key": api_key})
    data = resp.json()
    return data["price"]
`

const renamed = `import requests

def get_quote(ticker, key):
    endpoint = "https://quotes.p.rapidapi.com/quote"
    query = {"symbol": ticker}
    r = requests.get(endpoint, params=query, headers={"X-RapidAPI-Key": key})
    body = r.json()
    return body["price"]
`

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestCodeBLEU(t *testing.T) {
	ctx := context.Background()
	ref := Analyze(ctx, refCode)
	tests := []struct {
		name                 string
		cand                 string
		wantScore            func(float64) bool
		wantSyntax, wantFlow func(float64) bool
	}{
		{"identical", refCode, func(v float64) bool { return near(v, 1) }, func(v float64) bool { return near(v, 1) }, func(v float64) bool { return near(v, 1) }},
		{"renamed variables keep structure and data flow", renamed, func(v float64) bool { return v > 0.5 && v < 1 }, func(v float64) bool { return near(v, 1) }, func(v float64) bool { return near(v, 1) }},
		{"empty candidate", "", func(v float64) bool { return v < 0.01 }, func(v float64) bool { return near(v, 0) }, func(v float64) bool { return near(v, 0) }},
		{"unrelated code", "x = 1\nprint(x)\n", func(v float64) bool { return v < 0.3 }, func(v float64) bool { return v < 0.5 }, func(v float64) bool { return v < 0.5 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Score(Analyze(ctx, tt.cand), ref)
			if !tt.wantScore(got.Score) || !tt.wantSyntax(got.Syntax) || !tt.wantFlow(got.Dataflow) {
				t.Errorf("got %+v", got)
			}
		})
	}
	var c Corpus
	c.Add(ref, ref)
	c.Add(Analyze(ctx, renamed), ref)
	got := c.Score().Score
	if !(got > 0.5 && got < 1) {
		t.Errorf("corpus CodeBLEU = %v, want in (0.5, 1)", got)
	}
}

func TestEditSimilarity(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want float64
	}{
		{"identical", "abc", "abc", 1},
		{"both empty", "", "", 1},
		{"one empty", "abc", "", 0},
		{"kitten", "kitten", "sitting", 1 - 3.0/7},
		{"runes", "héllo", "hello", 0.8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EditSimilarity(tt.a, tt.b); !near(got, tt.want) {
				t.Errorf("EditSimilarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestTokenize(t *testing.T) {
	got := Tokenize("x = f('a # b', y**2)  # note\n")
	want := []string{"x", "=", "f", "(", "'a # b'", ",", "y", "**", "2", ")"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokenize = %q, want %q", got, want)
	}
}

func TestPRF(t *testing.T) {
	tests := []struct {
		name      string
		cand, ref []string
		tokens    bool
		want      PRF
	}{
		{"token multiset", []string{"a", "a", "b"}, []string{"a", "c"}, true, PRF{1.0 / 3, 0.5, 0.4}},
		{"keys", []string{"q", "lang"}, []string{"q", "limit", "page"}, false, PRF{0.5, 1.0 / 3, 0.4}},
		{"keys both empty", nil, nil, false, PRF{1, 1, 1}},
		{"keys none predicted", nil, []string{"q"}, false, PRF{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got PRF
			if tt.tokens {
				got = TokenPRF(tt.cand, tt.ref)
			} else {
				got = KeySetPRF(tt.cand, tt.ref)
			}
			if !near(got.P, tt.want.P) || !near(got.R, tt.want.R) || !near(got.F1, tt.want.F1) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
