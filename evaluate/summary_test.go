package evaluate

import (
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"testing"

	"sccg/release"
)

func TestAggKeys(t *testing.T) {
	b, err := json.Marshal(Agg{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	got := slices.Sorted(maps.Keys(m))
	want := []string{"codebleu", "dep", "dep_recall", "endpoint_acc", "es", "exec_req", "host_acc", "method_acc", "mock", "n",
		"n_dep_recall", "param_f1", "robust", "samples", "secret", "syntax", "token_f1", "token_p", "token_r"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary metric keys = %v, want %v", got, want)
	}
}

func TestSummarize(t *testing.T) {
	mk := func(model, id string, idx int, dmt, src string, hasEP bool, mock float64, stage string) Result {
		r := Result{SampleID: id, Model: model, Setting: "s", SampleIndex: idx, DocMatchType: dmt, CommentsSource: src,
			TimeSlice: "before_2024-06-01", HasEndpoint: hasEP, FailureStage: stage, Status: "ok"}
		r.Mock, r.HostAcc, r.ExecReq = mock, 1, 1
		return r
	}
	rs := []Result{
		mk("m", "A", 0, "url", "original", true, 1, StageHit),
		mk("m", "A", 1, "url", "original", true, 0, StageEndpoint),
		mk("m", "B", 0, "route", "intent_redacted", true, 0, StageHost),
		mk("m", "B", 1, "route", "intent_redacted", true, 0, StageHost),
		mk("m", "C", 0, "host_only", "original", false, 1, StageHit),
	}
	s := Summarize(rs, []int{1, 2})
	if len(s.Groups) != 1 {
		t.Fatalf("groups = %d, want 1", len(s.Groups))
	}
	g := s.Groups[0]
	if g.Overall.N != 4 || g.Overall.Mock != 0.25 {
		t.Errorf("overall n=%d mock=%v, want 4 and 0.25 (the sample without an endpoint apart)", g.Overall.N, g.Overall.Mock)
	}
	if g.NoEndpoint == nil || g.NoEndpoint.N != 1 || g.NoEndpoint.Mock != 1 {
		t.Errorf("no_endpoint = %+v", g.NoEndpoint)
	}
	if g.ByDocMatchType["url"].Mock != 0.5 || g.ByDocMatchType["route"].N != 2 || g.ByCommentsSource["original"].N != 2 {
		t.Errorf("strata: %+v %+v", g.ByDocMatchType, g.ByCommentsSource)
	}
	// A has 2 completions with 1 hit: pass@1 = 0.5, pass@2 = 1; B none: 0.
	if math.Abs(g.PassAtK["pass@1"]-0.25) > 1e-12 || math.Abs(g.PassAtK["pass@2"]-0.5) > 1e-12 {
		t.Errorf("pass@k = %v", g.PassAtK)
	}
	if g.FailureStages[StageHost] != 2 || g.FailureStages[StageHit] != 1 || g.Statuses["ok"] != 5 {
		t.Errorf("stages %v statuses %v", g.FailureStages, g.Statuses)
	}
}

// pass@k is only estimated for k up to the fewest completions of a sample: with
// one completion each, pass@3 would only repeat pass@1. The intervals count the
// samples, not the completions.
func TestPassAtKOnlyUpToN(t *testing.T) {
	var rs []Result
	for i, id := range []string{"A", "B", "C"} {
		r := Result{SampleID: id, Setting: "s", Model: "m", HasEndpoint: true, Status: "ok"}
		r.Mock = float64(i % 2)
		rs = append(rs, r)
	}
	g := Summarize(rs, []int{1, 3}).Groups[0]
	if _, ok := g.PassAtK["pass@3"]; ok || len(g.PassAtK) != 1 || !reflect.DeepEqual(g.PassAtKOmitted, []string{"pass@3 (n = 1)"}) {
		t.Errorf("pass@k = %v, omitted %v; want pass@1 only, pass@3 omitted", g.PassAtK, g.PassAtKOmitted)
	}
	var three []Result
	for _, r := range rs {
		for i := 0; i < 3; i++ {
			r.SampleIndex = i
			three = append(three, r)
		}
	}
	g = Summarize(three, []int{1, 3}).Groups[0]
	if len(g.PassAtK) != 2 || g.Overall.N != 9 || g.Overall.Samples != 3 {
		t.Errorf("n = 3: pass@k %v, N %d over %d samples; want both, 9 over 3", g.PassAtK, g.Overall.N, g.Overall.Samples)
	}
}

func TestAnswerCounts(t *testing.T) {
	rs := []Result{
		{SampleID: "A", Setting: "s", Model: "m", HasEndpoint: true, Truncated: true, AnswerForm: "fenced", Reasoning: true},
		{SampleID: "B", Setting: "s", Model: "m", HasEndpoint: true, AnswerForm: "trimmed", Metrics: Metrics{Syntax: 1}},
		{SampleID: "C", Setting: "s", Model: "m", HasEndpoint: false, AnswerForm: "empty", Reasoning: true},
	}
	got := Summarize(rs, nil).Groups[0].Answers
	want := AnswerCounts{Truncated: 1, Reasoning: 2, Trimmed: 1, Empty: 1, SyntaxErrors: 2}
	if got != want {
		t.Errorf("answers = %+v, want %+v", got, want)
	}
}

// A completion whose requests came from a function it handed to a framework stub
// is counted in its group, so the eval's output can name the fallback.
func TestSummarizeCountsHanded(t *testing.T) {
	rs := []Result{
		{SampleID: "A", Model: "m", Setting: "s", HasEndpoint: true, Status: "ok", Handed: true},
		{SampleID: "B", Model: "m", Setting: "s", HasEndpoint: true, Status: "ok"},
		{SampleID: "C", Model: "m", Setting: "s", Status: "ok", Handed: true},
	}
	if g := Summarize(rs, nil).Groups[0]; g.Handed != 2 {
		t.Errorf("handed %d, want 2 (with and without an endpoint)", g.Handed)
	}
}

func TestTimeSlice(t *testing.T) {
	rec := func(authored, created string) release.Record {
		var r release.Record
		r.GitHubInfo.FunctionAuthoredAt, r.GitHubInfo.CreatedAt = authored, created
		return r
	}
	tests := []struct {
		name               string
		rec                release.Record
		wantSlice, wantWhy string
	}{
		{"the function's date wins over an old repository", rec("2024-08-01T10:00:00Z", "2019-01-01T00:00:00Z"), "from_2024-06-01", TimeByFunction},
		{"an old function in a new repository", rec("2023-12-31T23:59:59Z", "2024-07-01T00:00:00Z"), "before_2024-06-01", TimeByFunction},
		{"the cutoff day itself is from", rec("2024-06-01T00:00:00Z", ""), "from_2024-06-01", TimeByFunction},
		{"no function date: the repository's", rec("", "2019-01-01T00:00:00Z"), "before_2024-06-01", TimeByRepository},
		{"neither", rec("", ""), "unknown", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slice, why := TimeSlice(tt.rec, "2024-06-01")
			if slice != tt.wantSlice || why != tt.wantWhy {
				t.Errorf("got %s by %q, want %s by %q", slice, why, tt.wantSlice, tt.wantWhy)
			}
		})
	}
}
