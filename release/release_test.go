package release

import (
	"strings"
	"testing"
)

func TestParseEncodeKeepsUnknownFields(t *testing.T) {
	in := `[{"sample_id":"SCG-000007","api_name":"Weather","api_host":"w.p.rapidapi.com","function_name":"f",` +
		`"language":"python","github_info":{"repo":"o/r","query_layer":"host","future":1},` +
		`"code":{"complete_function":"if a < b and c > d & e: pass"},"api_metadata":{"route":"/x","extra_meta":[1,2]},` +
		`"quality_metrics":{},"comments":[{"text":"hi","kind":"docstring"}],"comments_source":"original","added":"yes"}]`
	recs, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].SampleID != "SCG-000007" || recs[0].GitHubInfo.Repo != "o/r" {
		t.Fatalf("parsed %+v", recs)
	}
	for _, f := range []Format{JSON, JSONL} {
		b, err := Encode(recs, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"added": "yes"`, `"future": 1`, `"extra_meta": [`, `"kind": "docstring"`, `a < b and c > d & e`} {
			if f == JSONL {
				want = strings.ReplaceAll(want, ": ", ":")
			}
			if !strings.Contains(string(b), want) {
				t.Errorf("%s encoding lacks %s:\n%s", f, want, b)
			}
		}
		again, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := Encode(again, f)
		if string(b2) != string(b) {
			t.Errorf("%s round trip changed the encoding:\n%s\n---\n%s", f, b, b2)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{`{`, `[{"sample_id": 3}]`, "{\"sample_id\":\"a\"}\nnot json"} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

func TestSplitNamesAndIDs(t *testing.T) {
	for in, want := range map[string]string{"dev": Validation, " Training ": Train, "TEST": Test} {
		if got, err := NormalizeName(in); err != nil || got != want {
			t.Errorf("NormalizeName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := NormalizeName("holdout"); err == nil {
		t.Error("NormalizeName(holdout): no error")
	}
	if id := FormatID(42); id != "SCG-000042" || IDNumber(id) != 42 {
		t.Errorf("FormatID(42) = %q, IDNumber = %d", id, IDNumber(id))
	}
	if n := IDNumber("X-12"); n != 0 {
		t.Errorf("IDNumber(X-12) = %d, want 0", n)
	}
}

func TestSplitFromPath(t *testing.T) {
	for in, want := range map[string]string{"release/splits/test.json": "test", "dev.jsonl": "validation", "sccgbench.json": ""} {
		if got := SplitFromPath(in); got != want {
			t.Errorf("SplitFromPath(%q) = %q, want %q", in, got, want)
		}
	}
}
