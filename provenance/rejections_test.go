package provenance

import (
	"bytes"
	"slices"
	"testing"
)

func TestWordsOfTheSummaries(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"one", plural(1, "file"), "1 file"},
		{"many", plural(3, "file"), "3 files"},
		{"y to ies", plural(2, "repository"), "2 repositories"},
		{"ey stays", plural(2, "key"), "2 keys"},
		{"s takes es", plural(2, "class"), "2 classes"},
		{"a GitHub file URL", githubFileName("https://github.com/dana/wx/blob/0a1b/src/jokes.py"), "dana/wx/src/jokes.py"},
		{"a repository URL", githubFileName("https://github.com/dana/wx"), "dana/wx"},
		{"anything else", githubFileName("specs/weather.yaml"), "specs/weather.yaml"},
		{"evidence message", evidenceDetail(map[string]any{"message": "no servers"}), "no servers"},
		{"evidence items", evidenceDetail(map[string]any{"count": float64(3), "items": []any{
			map[string]any{"file": "a.json", "line": float64(4), "pointer": "/paths/~1x", "detail": "no host"}}}),
			"a.json line 4 /paths/~1x: no host (and 2 more)"},
		{"no evidence", evidenceDetail(nil), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestSplitReason(t *testing.T) {
	tests := []struct{ reason, class, detail string }{
		{"invalid OpenAPI: paths./x: bad", "invalid OpenAPI", "paths./x: bad"},
		{"no_host", "no_host", ""},
		{": starts with a colon", ": starts with a colon", ""},
	}
	for _, tt := range tests {
		if c, d := splitReason(tt.reason); c != tt.class || d != tt.detail {
			t.Errorf("splitReason(%q) = %q, %q; want %q, %q", tt.reason, c, d, tt.class, tt.detail)
		}
	}
}

// TestGroupsInPipelineOrder: groups come by stage in pipeline order (import after
// export, an unknown stage last), rejections before failures, larger groups first.
func TestGroupsInPipelineOrder(t *testing.T) {
	gs := []RejectionGroup{
		{Stage: "zz-unknown", Verdict: "rejected", Count: 9},
		{Stage: "import", Verdict: "rejected", Count: 1},
		{Stage: "crawl", Verdict: "failed", Count: 5},
		{Stage: "crawl", Verdict: "rejected", Count: 1, Reason: "b"},
		{Stage: "crawl", Verdict: "rejected", Count: 2, Reason: "a"},
		{Stage: "export", Verdict: "rejected", Count: 1},
	}
	sortGroups(gs)
	var got []string
	for _, g := range gs {
		got = append(got, g.Stage+" "+g.Verdict+" "+g.Reason)
	}
	want := []string{"crawl rejected a", "crawl rejected b", "crawl failed ", "export rejected ", "import rejected ", "zz-unknown rejected "}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestWriteNamesThreeExamples(t *testing.T) {
	r := &Rejections{Total: 4, Groups: []RejectionGroup{{Stage: "crawl", Verdict: "rejected", SubjectKind: "file", Reason: "no_host", Count: 4,
		Subjects: []RejectedSubject{{Name: "a.json", Detail: "no host"}, {Name: "b.json"}, {Name: "c.json"}, {Name: "d.json"}}}}}
	var b bytes.Buffer
	r.Write(&b, "  ")
	want := "  crawl rejected 4 files: no_host\n      a.json: no host\n      b.json\n      c.json\n" +
		"      … and 1 more (--json lists every one; 'sccg why SUBJECT' explains one)\n"
	if b.String() != want {
		t.Errorf("Write:\n%s\nwant:\n%s", b.String(), want)
	}
}
