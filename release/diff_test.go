package release

import (
	"encoding/json"
	"reflect"
	"testing"
)

func diffRecord(id, repo, commit, file, fn, host, method, route string) Record {
	r := Record{SampleID: id, APIName: host, APIHost: host, FunctionName: fn}
	r.GitHubInfo = GitHubInfo{Repo: repo, FilePath: file, FileURL: "https://github.com/" + repo + "/blob/" + commit + "/" + file}
	r.APIMetadata = Metadata{Method: method, Route: route}
	return r
}

func TestCompare(t *testing.T) {
	oldRecs := []Record{
		diffRecord("SCG-000001", "ana/wx", "c1", "wx.py", "forecast", "wx.example", "GET", "/forecast"),
		diffRecord("SCG-000002", "ana/wx", "c1", "wx.py", "current", "wx.example", "GET", "/now"),
		diffRecord("SCG-000003", "bob/jokes", "c2", "j.py", "joke", "jokes.example", "GET", "/random"),
		diffRecord("SCG-000004", "bob/jokes", "c2", "j.py", "search", "jokes.example", "GET", "/search"),
	}
	newRecs := []Record{
		diffRecord("SCG-000001", "ana/wx", "c1", "wx.py", "current", "wx.example", "GET", "/current"), // route changed
		diffRecord("SCG-000002", "Ana/WX", "c1", "wx.py", "forecast", "wx.example", "get", "/forecast"),
		diffRecord("SCG-000003", "cy/quotes", "c3", "q.py", "today", "quotes.example", "GET", "/today"),
	}
	// the commit comes from commit_sha before the file URL
	newRecs[2].GitHubInfo.FileURL = "https://github.com/cy/quotes/blob/main/q.py"
	newRecs[2].GitHubInfo.Extra = map[string]json.RawMessage{"commit_sha": json.RawMessage(`"c3"`)}
	d := Compare(oldRecs, newRecs)
	ids := func(es []DiffEntry) [][2]string {
		out := [][2]string{}
		for _, e := range es {
			out = append(out, [2]string{e.OldID, e.NewID})
		}
		return out
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"unchanged (repository case and method case do not matter)", ids(d.Unchanged), [][2]string{{"SCG-000001", "SCG-000002"}}},
		{"relabelled", ids(d.Relabelled), [][2]string{{"SCG-000002", "SCG-000001"}}},
		{"what changed", d.Relabelled[0].Changed, []string{"route"}},
		{"retired", ids(d.Retired), [][2]string{{"SCG-000003", ""}, {"SCG-000004", ""}}},
		{"added", ids(d.Added), [][2]string{{"", "SCG-000003"}}},
		{"retired by API", ByAPI(d.Retired), map[string]int{"jokes.example": 2}},
		{"counts", [2]int{d.OldSamples, d.NewSamples}, [2]int{4, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}
