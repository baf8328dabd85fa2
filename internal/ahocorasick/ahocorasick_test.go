package ahocorasick

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// naive is what Find must agree with: every pattern contained in the ASCII
// lower-cased text.
func naive(patterns []string, text []byte) []int {
	var out []int
	for i, p := range patterns {
		if p != "" && bytes.Contains(asciiLower(text), asciiLower([]byte(p))) {
			out = append(out, i)
		}
	}
	return out
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func TestFind(t *testing.T) {
	hosts := []string{"weather.p.rapidapi.com", "open-weather.p.rapidapi.com", "jokes.p.rapidapi.com",
		"api.example.com", "example.com", "", "Jokes.P.RapidAPI.com"}
	tests := []struct {
		name string
		text string
		want []int
	}{
		{"none", "print('hello')", nil},
		{"one", `url = "https://jokes.p.rapidapi.com/random"`, []int{2, 6}},
		{"suffix of another host", `"open-weather.p.rapidapi.com"`, []int{0, 1}},
		{"case folded", `HOST = "API.EXAMPLE.COM"`, []int{3, 4}},
		{"overlapping at the end", "xxapi.example.comxx", []int{3, 4}},
		{"several", "weather.p.rapidapi.com jokes.p.rapidapi.com example.com", []int{0, 2, 4, 6}},
		{"prefix only", "weather.p.rapidapi.co", nil},
		{"empty text", "", nil},
	}
	m := New(hosts)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.Find([]byte(tt.text))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Find(%q) = %v, want %v", tt.text, got, tt.want)
			}
			if n := naive(hosts, []byte(tt.text)); !slices.Equal(got, n) {
				t.Errorf("Find(%q) = %v, the naive search finds %v", tt.text, got, n)
			}
		})
	}
	if New(nil).Find([]byte("anything")) != nil {
		t.Error("an empty matcher found something")
	}
}

// Random patterns over a small alphabet (so they overlap and share prefixes and
// suffixes) against random texts: Find agrees with one Contains per pattern.
func TestFindAgreesWithNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "abAB.-c"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for round := 0; round < 300; round++ {
		patterns := make([]string, 1+r.IntN(12))
		for i := range patterns {
			patterns[i] = word(1 + r.IntN(5))
		}
		m := New(patterns)
		for k := 0; k < 10; k++ {
			text := []byte(word(r.IntN(60)))
			if got, want := m.Find(text), naive(patterns, text); !slices.Equal(got, want) {
				t.Fatalf("patterns %q, text %q: Find = %v, naive = %v", patterns, text, got, want)
			}
		}
	}
}

func FuzzFind(f *testing.F) {
	f.Add("ab,b,abc", "xxabcab")
	f.Add("a.p.rapidapi.com,p.rapidapi.com", "https://A.P.RAPIDAPI.COM/x")
	f.Fuzz(func(t *testing.T, list, text string) {
		patterns := strings.Split(list, ",")
		if got, want := New(patterns).Find([]byte(text)), naive(patterns, []byte(text)); !slices.Equal(got, want) {
			t.Fatalf("patterns %q, text %q: Find = %v, naive = %v", patterns, text, got, want)
		}
	})
}

// BenchmarkFind scans a 64 KB Python-like file for 20,000 hosts, and reports the
// same scan done as one Contains per host for comparison.
func BenchmarkFind(b *testing.B) {
	hosts := make([]string, 20000)
	for i := range hosts {
		hosts[i] = fmt.Sprintf("api-%05d-service.p.rapidapi.com", i)
	}
	var buf bytes.Buffer
	for buf.Len() < 64<<10 {
		buf.WriteString("def fetch(city):\n    return requests.get(\"https://weather.example.org/v1/\" + city).json()\n")
	}
	buf.WriteString(`HOST = "api-12345-service.p.rapidapi.com"` + "\n")
	text := buf.Bytes()
	m := New(hosts)
	b.Run("automaton", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for i := 0; i < b.N; i++ {
			if len(m.Find(text)) != 1 {
				b.Fatal("host not found")
			}
		}
	})
	b.Run("contains-per-host", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for i := 0; i < b.N; i++ {
			lower := bytes.ToLower(text)
			n := 0
			for _, h := range hosts[:200] { // a hundredth of the hosts, to keep it short
				if bytes.Contains(lower, []byte(h)) {
					n++
				}
			}
			_ = n
		}
	})
}

func TestFindBounded(t *testing.T) {
	m := New([]string{"api.open-meteo.com", "archive-api.open-meteo.com", "open-meteo.com"})
	// a host stands alone when the byte before it is no host byte
	alone := func(text []byte, start, end int) bool {
		return start == 0 || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789.-", rune(text[start-1]))
	}
	tests := []struct {
		text string
		want []int
	}{
		{`"https://archive-api.open-meteo.com/v1"`, []int{1}},
		{`"https://api.open-meteo.com/v1"`, []int{0}},
		{`"https://archive-api.open-meteo.com" "//api.open-meteo.com"`, []int{0, 1}},
		{`open-meteo.com`, []int{2}},
		{`nothing here`, nil},
	}
	for _, tt := range tests {
		got := m.FindBounded([]byte(tt.text), alone)
		if !slices.Equal(got, tt.want) {
			t.Errorf("FindBounded(%q) = %v, want %v", tt.text, got, tt.want)
		}
		if all := m.Find([]byte(tt.text)); len(all) < len(got) {
			t.Errorf("Find(%q) = %v reports fewer than FindBounded %v", tt.text, all, got)
		}
	}
}
