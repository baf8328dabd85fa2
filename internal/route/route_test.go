package route

import "testing"

func TestMatch(t *testing.T) {
	tests := []struct {
		name, route, path string
		want              bool
	}{
		{"literal", "/current", "/current", true},
		{"trailing slash in path", "/current", "/current/", true},
		{"trailing slash in route", "/current/", "/current", true},
		{"query string", "/current", "/current?q=London&lang=en", true},
		{"query string in route", "/search?q=", "/search", true},
		{"different literal", "/current", "/currently", false},
		{"case sensitive", "/search", "/Search", false},
		{"prefix is not a match", "/a", "/a/b", false},
		{"template segment", "/forecast/15minutely/{location}", "/forecast/15minutely/Paris", true},
		{"template needs a segment", "/forecast/{location}", "/forecast/", false},
		{"template needs its segment", "/forecast/{location}", "/forecast", false},
		{"template one segment only", "/forecast/{location}", "/forecast/a/b", false},
		{"two params", "/words/{word}/{kind}", "/words/cat/synonyms?limit=3", true},
		{"colon param", "/races/:season", "/races/2023", true},
		{"colon param one segment", "/races/:season", "/races/2023/1", false},
		{"placeholder in path matches parameter", "/forecast/{location}", "/forecast/{city}", true},
		{"placeholder never matches literal", "/forecast/daily", "/forecast/{kind}", false},
		{"partial segment parameter", "/v1/{id}.json", "/v1/42.json", true},
		{"partial segment literal part", "/v1/{id}.json", "/v1/42.xml", false},
		{"regexp metacharacters are literal", "/v1.0/items+{id}", "/v1.0/items+7", true},
		{"dot is literal", "/v1.0/x", "/v1x0/x", false},
		{"unclosed brace is literal", "/a/{b", "/a/{b", true},
		{"double slash", "/a/b", "//a//b", true},
		{"empty segment fills a parameter", "/repos/{owner}/{repo}/issues", "/repos//fetch-lab/issues", true},
		{"empty segment collapsed still matches", "/repos/{owner}/{repo}", "/repos//fetch-lab/issues", true},
		{"empty segment is no literal", "/repos/a/{repo}/issues", "/repos//x/issues", false},
		{"empty segment in a partial parameter", "/v1/{id}.json", "/v1//.json", false},
		{"leading empty segment of a careless join", "/users/{id}", "https-base//users/5", false},
		{"leading double slash collapses", "/users/{id}", "//users/5", true},
		{"empty segment needs a parameter, not a root", "/{id}", "/", false},
		{"escaped path", "/search/{q}", "/search/new%20york", true},
		{"root", "/", "/", true},
		{"root empty path", "/", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Compile(tt.route).Match(tt.path); got != tt.want {
				t.Errorf("Compile(%q).Match(%q) = %v, want %v", tt.route, tt.path, got, tt.want)
			}
		})
	}
}

func TestSpecificityPrefersLiterals(t *testing.T) {
	lit, param := Compile("/forecast/daily"), Compile("/forecast/{day}")
	if !(lit.Specificity() > param.Specificity()) {
		t.Fatalf("specificity literal %d, param %d: literal should win", lit.Specificity(), param.Specificity())
	}
	if param.Params() != 1 || lit.Params() != 0 {
		t.Fatalf("params = %d, %d", param.Params(), lit.Params())
	}
}

func TestNormalizePath(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "/"},
		{"no leading slash", "a/b", "/a/b"},
		{"query and fragment", "/a?x=1#f", "/a"},
		{"trailing", "/a/b///", "/a/b"},
		{"escapes", "/a%2Fb/c%20d", "/a/b/c d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NormalizePath(tt.in); got != tt.want {
				t.Errorf("NormalizePath(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
