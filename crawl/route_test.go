package crawl

import (
	"fmt"
	"testing"
)

func TestMatchRoute(t *testing.T) {
	tests := []struct {
		name, template, path string
		want                 string // fmt of the params map, or "no"
	}{
		{"literal", "/current", "/current", "map[]"},
		{"literal trailing slash", "/current", "/current/", "map[]"},
		{"literal mismatch", "/current", "/currently", "no"},
		{"one param", "/forecast/daily/{location}", "/forecast/daily/London", "map[location:London]"},
		{"param does not cross slashes", "/forecast/daily/{location}", "/forecast/daily/a/b", "no"},
		{"empty param", "/quote/{symbol}", "/quote/", "no"},
		{"two params with query", "/words/{word}/{kind}", "/words/cat/synonyms?limit=3", "map[kind:synonyms word:cat]"},
		{"colon template", "/races/:season", "/races/2023", "map[season:2023]"},
		{"regexp metachars literal", "/v1.0/items+{id}", "/v1.0/items+7", "map[id:7]"},
		{"dot is literal", "/v1.0/x", "/v1x0/x", "no"},
		{"root", "/", "/", "map[]"},
		{"odd param name", "/a/{user-id}", "/a/5", "map[user_id:5]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := MatchRoute(tc.template, tc.path)
			got := "no"
			if ok {
				got = fmt.Sprint(m)
			}
			if got != tc.want {
				t.Errorf("MatchRoute(%q, %q) = %s, want %s", tc.template, tc.path, got, tc.want)
			}
		})
	}
}
