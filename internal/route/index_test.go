package route

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// best returns the template of the best hit, "" when none.
func best(templates []string, hits []Hit) string {
	if len(hits) == 0 {
		return ""
	}
	b := hits[0]
	for _, h := range hits[1:] {
		if h.Fit.Compare(b.Fit) < 0 {
			b = h
		}
	}
	return templates[b.ID]
}

func TestIndexLookup(t *testing.T) {
	github := []string{"/repos/{owner}/{repo}", "/repos/{owner}/{repo}/commits", "/repos/{owner}/{repo}/commits/{ref}",
		"/users/{username}", "/user", "/repos/{owner}/{repo}/git/refs/{ref}", "/orgs/{org}/repos"}
	discord := []string{"/api/v10/users/{user_id}", "/api/v10/users/@me", "/api/v10/users/@me/guilds", "/api/v10/guilds/{guild_id}"}
	tests := []struct {
		name      string
		templates []string
		path      string
		want      string   // best template, "" for none
		hits      []string // every template that fits, when given
		bindings  []string // of the best
	}{
		{"literal beside parameter", discord, "/api/v10/users/@me", "/api/v10/users/@me",
			[]string{"/api/v10/users/{user_id}", "/api/v10/users/@me"}, nil},
		{"parameter when the literal is another", discord, "/api/v10/users/80351110224678912", "/api/v10/users/{user_id}", nil,
			[]string{"{user_id}=80351110224678912"}},
		{"placeholder spans owner and repo", github, "/repos/{repository}/commits", "/repos/{owner}/{repo}/commits",
			[]string{"/repos/{owner}/{repo}", "/repos/{owner}/{repo}/commits"}, []string{"{owner}/{repo}={repository}"}},
		{"literal filling a parameter loses to a literal match", github, "/repos/{owner}/{repo}/commits", "/repos/{owner}/{repo}/commits", nil,
			[]string{"{owner}={owner}", "{repo}={repo}"}},
		{"placeholder alone spans owner and repo", github, "/repos/{repository}", "/repos/{owner}/{repo}", nil, nil},
		{"spanning placeholder after the literal it needs", github, "/repos/{full_name}/commits/{sha}", "/repos/{owner}/{repo}/commits/{ref}", nil, nil},
		{"placeholder never fills a literal", github, "/repos/{repository}/{what}", "/repos/{owner}/{repo}", nil, nil},
		{"no literal match, no span", []string{"/{owner}/{repo}"}, "/{thing}", "", nil, nil},
		{"no span without a placeholder", github, "/repos/octo/commits", "/repos/{owner}/{repo}", nil, []string{"{owner}=octo", "{repo}=commits"}},
		{"root", []string{"/", "/a"}, "", "/", nil, nil},
		{"partial segment", []string{"/v1/{id}.json", "/v1/{id}"}, "/v1/42.json", "/v1/{id}.json", nil, nil},
		{"unknown path", github, "/gists", "", nil, nil},
		{"empty segment binds the owner", append(slices.Clone(github), "/repos/{owner}/{repo}/issues"), "/repos//fetch-lab/issues",
			"/repos/{owner}/{repo}/issues", nil, []string{"{owner}=", "{repo}=fetch-lab"}},
		{"leading empty segment of a join collapses", github, "//users/octo", "/users/{username}", nil, []string{"{username}=octo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewIndex()
			for i, tp := range tt.templates {
				x.Add(tp, i)
			}
			hits := x.Lookup(tt.path)
			if got := best(tt.templates, hits); got != tt.want {
				t.Errorf("best of %q = %q, want %q (hits %+v)", tt.path, got, tt.want, hits)
			}
			if tt.hits != nil {
				var got []string
				for _, h := range hits {
					got = append(got, tt.templates[h.ID])
				}
				if !slices.Equal(got, tt.hits) {
					t.Errorf("hits of %q = %q, want %q", tt.path, got, tt.hits)
				}
			}
			if tt.bindings != nil {
				for _, h := range hits {
					if tt.templates[h.ID] == tt.want && !slices.Equal(h.Fit.Bindings, tt.bindings) {
						t.Errorf("bindings = %q, want %q", h.Fit.Bindings, tt.bindings)
					}
				}
			}
		})
	}
}

// TestIndexAgreesWithMatch checks that on concrete paths the index finds exactly
// the templates Match accepts, over the cases of TestMatch and random ones.
func TestIndexAgreesWithMatch(t *testing.T) {
	templates := []string{"/current", "/current/", "/search?q=", "/a", "/forecast/15minutely/{location}", "/forecast/{location}",
		"/words/{word}/{kind}", "/races/:season", "/forecast/daily", "/v1/{id}.json", "/v1.0/items+{id}", "/v1.0/x", "/a/{b", "/a/b",
		"/search/{q}", "/", "/{x}/{y}", "/a/{x}/c"}
	paths := []string{"/current", "/current/", "/current?q=London", "/search", "/currently", "/Search", "/a/b", "/forecast/15minutely/Paris",
		"/forecast/", "/forecast", "/forecast/a/b", "/words/cat/synonyms?limit=3", "/races/2023", "/races/2023/1", "/forecast/daily",
		"/v1/42.json", "/v1/42.xml", "/v1.0/items+7", "/v1x0/x", "/a/{b", "//a//b", "/search/new%20york", "/", "", "/a/q/c",
		"/a//c", "/words//synonyms", "//x", "/forecast//", "/v1//.json"}
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "x", "v1", "42.json", "items+7", ""}
	for range 200 {
		var p []string
		for range 1 + r.IntN(4) {
			p = append(p, words[r.IntN(len(words))])
		}
		paths = append(paths, "/"+strings.Join(p, "/"))
	}
	x := NewIndex()
	for i, tp := range templates {
		x.Add(tp, i)
	}
	for _, p := range paths {
		var want, got []string
		for _, tp := range templates {
			if Compile(tp).Match(p) {
				want = append(want, tp)
			}
		}
		for _, h := range x.Lookup(p) {
			got = append(got, templates[h.ID])
		}
		if !slices.Equal(got, want) {
			t.Errorf("Lookup(%q) = %q, Match accepts %q", p, got, want)
		}
	}
	// With placeholders, the index finds what Match accepts, and more only by
	// letting a placeholder span segments.
	for _, p := range []string{"/forecast/{city}", "/v1/{id}.json", "/words/{w}/{k}", "/a/{x}", "/{x}/b", "/a/{x}/c", "/races/{s}", "/{x}", "/a/{b}"} {
		hits := map[string]Fit{}
		for _, h := range x.Lookup(p) {
			hits[templates[h.ID]] = h.Fit
		}
		for _, tp := range templates {
			f, found := hits[tp]
			switch match := Compile(tp).Match(p); {
			case match && !found:
				t.Errorf("Lookup(%q) misses %q, which Match accepts", p, tp)
			case !match && found && f.Spanned == 0:
				t.Errorf("Lookup(%q) finds %q without a span, which Match refuses", p, tp)
			}
		}
	}
}

// BenchmarkIndexLookup looks up paths in a 1,000-template index.
func BenchmarkIndexLookup(b *testing.B) {
	x := NewIndex()
	var paths []string
	for i := range 1000 {
		x.Add(fmt.Sprintf("/r%d/{owner}/{repo}/s%d/{id}", i%50, i), i)
		paths = append(paths, fmt.Sprintf("/r%d/{repository}/s%d/7", i%50, i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(x.Lookup(paths[i%len(paths)])) == 0 {
			b.Fatal("no hit")
		}
	}
}

func TestIndexSelections(t *testing.T) {
	jikan := []string{"/v4/anime/{id}/full", "/v4/manga/{id}/full", "/v4/anime/{id}", "/v4/seasons/now"}
	spotify := []string{"/v1/artists/{id}", "/v1/albums", "/v1/me/playlists", "/v1/{x}/{y}"}
	tests := []struct {
		name      string
		templates []string
		path      string
		want      []string // template: stands
	}{
		{"a parameter selects the resource", jikan, "/v4/{type}/{id}/full",
			[]string{"/v4/anime/{id}/full: {type}=anime", "/v4/manga/{id}/full: {type}=manga"}},
		{"a tail after a fixed base", spotify, "/v1/{param}",
			[]string{"/v1/artists/{id}: {param}=artists/{id} (tail)", "/v1/albums: {param}=albums (tail)", "/v1/me/playlists: {param}=me/playlists (tail)"}},
		{"a literal path selects nothing", jikan, "/v4/anime/5/full", nil},
		{"a placeholder that fits a parameter stands for nothing", jikan, "/v4/anime/{id}", nil},
		{"other literals must still match", jikan, "/v4/{type}/{id}/pictures", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewIndex()
			for i, tp := range tt.templates {
				x.Add(tp, i)
			}
			var got []string
			for _, s := range x.Selections(tt.path) {
				var st []string
				for _, d := range s.Stood {
					e := d.Placeholder + "=" + d.Template
					if d.Tail {
						e += " (tail)"
					}
					st = append(st, e)
				}
				got = append(got, tt.templates[s.ID]+": "+strings.Join(st, " "))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Selections(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}
