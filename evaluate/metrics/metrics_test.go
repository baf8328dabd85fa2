package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"sccg/lang"
	"sccg/lang/frontends"
	"strings"
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
	ref := Analyze(ctx, python, lang.DialectPython, refCode)
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
			got := Score(Analyze(ctx, python, lang.DialectPython, tt.cand), ref)
			if !tt.wantScore(got.Score) || !tt.wantSyntax(got.Syntax) || !tt.wantFlow(got.Dataflow) {
				t.Errorf("got %+v", got)
			}
		})
	}
	var c Corpus
	c.Add(ref, ref)
	c.Add(Analyze(ctx, python, lang.DialectPython, renamed), ref)
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

// TestLevenshteinAgainstTable checks the bit-parallel distance against the plain
// dynamic-programming table on strings of every length around the 64-row words,
// from small alphabets (many matches) and large ones, with shared prefixes and
// suffixes.
func TestLevenshteinAgainstTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(n, alpha int) []rune {
		r := make([]rune, n)
		for i := range r {
			r[i] = 'a' + rune(rng.IntN(alpha))
			if alpha > 26 {
				r[i] = 'ä' + rune(rng.IntN(alpha))
			}
		}
		return r
	}
	for _, n := range []int{0, 1, 2, 5, 63, 64, 65, 127, 128, 129, 200, 300} {
		for _, alpha := range []int{2, 4, 26, 300} {
			for k := 0; k < 4; k++ {
				a, b := gen(n, alpha), gen(rng.IntN(n+70), alpha)
				if k == 3 { // a shared prefix and suffix around different middles
					a = append(append(gen(10, alpha), a...), []rune("tail")...)
					b = append(append(a[:10:10], b...), []rune("tail")...)
				}
				if got, want := levenshtein(a, b), tableDistance(a, b); got != want {
					t.Fatalf("levenshtein(%q, %q) = %d, want %d", string(a), string(b), got, want)
				}
			}
		}
	}
}

// tableDistance is the edit distance by the full dynamic-programming table.
func tableDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestTokenize(t *testing.T) {
	got := Tokenize(python.Grammar(lang.DialectPython), "x = f('a # b', y**2)  # note\n")
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

var python = frontends.MustFor(lang.Python)

const jsRef = `import axios from 'axios';

// the price of a symbol
export async function getPrice(symbol) {
  const url = ` + "`https://stocks.p.rapidapi.com/quote/${symbol}`" + `;
  const res = await axios.get(url, { headers: { 'X-RapidAPI-Host': 'stocks.p.rapidapi.com' } });
  const body = res.data;
  return body.price;
}
`

const jsRenamed = `import axios from 'axios';

export async function fetchQuote(ticker) {
  const endpoint = ` + "`https://stocks.p.rapidapi.com/quote/${ticker}`" + `;
  const response = await axios.get(endpoint, { headers: { 'X-RapidAPI-Host': 'stocks.p.rapidapi.com' } });
  const payload = response.data;
  return payload.price;
}
`

func TestCodeBLEUJavaScript(t *testing.T) {
	ctx := context.Background()
	js := frontends.MustFor(lang.JavaScript)
	ref := Analyze(ctx, js, lang.DialectJS, jsRef)
	if ref.NSub == 0 || ref.NFlow == 0 {
		t.Fatalf("the reference has %d subtrees and %d data-flow edges, want both", ref.NSub, ref.NFlow)
	}
	if got := Score(ref, ref); !near(got.Score, 1) {
		t.Errorf("identical: %+v", got)
	}
	renamed := Score(Analyze(ctx, js, lang.DialectJS, jsRenamed), ref)
	if !near(renamed.Syntax, 1) || !near(renamed.Dataflow, 1) || renamed.Score >= 1 || renamed.Score < 0.5 {
		t.Errorf("renamed identifiers keep structure and data flow: %+v", renamed)
	}
	other := Score(Analyze(ctx, js, lang.DialectJS, "let x = 1;\nconsole.log(x);\n"), ref)
	if other.Score > 0.3 {
		t.Errorf("unrelated code: %+v", other)
	}
	// TypeScript's grammar has kinds of its own (typed parameters): a pair is
	// read in the reference's dialect
	tsRef := Analyze(ctx, js, lang.DialectTS, strings.Replace(jsRef, "(symbol)", "(symbol: string)", 1))
	tsCand := Analyze(ctx, js, lang.DialectTS, strings.Replace(jsRenamed, "(ticker)", "(ticker: string)", 1))
	if ts := Score(tsCand, tsRef); !near(ts.Syntax, 1) || !near(ts.Dataflow, 1) {
		t.Errorf("renamed TypeScript: %+v", ts)
	}
}

func TestTokenizeJavaScript(t *testing.T) {
	g := frontends.MustFor(lang.JavaScript).Grammar(lang.DialectJS)
	got := Tokenize(g, "const u = `a // b ${x}`; // note\n/* block\n */ if (a === b?.c) x **= 2;\n")
	want := []string{"const", "u", "=", "`a // b ${x}`", ";", "if", "(", "a", "===", "b", "?.", "c", ")", "x", "**=", "2", ";"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokenize = %q, want %q", got, want)
	}
	if !g.Keywords["const"] || g.Keywords["def"] {
		t.Error("JavaScript's keywords are not Python's")
	}
}
