package samples

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sccg/internal/conformance"
	"sccg/internal/storetest"
	"sccg/release"
	"sccg/store"
)

// decodeAny decodes JSON (an array or JSON Lines) into generic values for semantic
// comparison.
func decodeAny(t *testing.T, b []byte) []any {
	t.Helper()
	recs, err := release.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	for _, r := range recs {
		rb, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(rb, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func rawAny(t *testing.T, b []byte) []any {
	t.Helper()
	var v []any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// firstDiff names the first record whose JSON differs, for a readable failure.
func firstDiff(got, want []any) string {
	if len(got) != len(want) {
		return "record counts differ"
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			g, _ := json.Marshal(got[i])
			w, _ := json.Marshal(want[i])
			return fmt.Sprintf("record %d:\n got %s\nwant %s", i, g, w)
		}
	}
	return ""
}

func TestConformanceRoundTrip(t *testing.T) {
	path := conformance.Path(t)
	ctx := context.Background()
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := release.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := storetest.Open(t)
	if _, err := Import(ctx, s, recs, ImportOptions{Split: release.Validation, Source: path}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Export(ctx, s, dir, release.JSON); err != nil {
		t.Fatal(err)
	}
	want := rawAny(t, in)
	for _, rel := range []string{"sccgbench.json", "splits/validation.json"} {
		got, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDiff(rawAny(t, got), want); d != "" {
			t.Errorf("%s differs from the input: %s", rel, d)
		}
	}
	t.Logf("round trip: %d records, every field equal", len(want))
}

func TestImportExport(t *testing.T) {
	ctx := context.Background()
	recs, err := release.ReadFile("testdata/mini.json")
	if err != nil {
		t.Fatal(err)
	}
	s := storetest.Open(t)
	res, err := Import(ctx, s, recs, ImportOptions{Split: "val", Source: "mini.json"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Dump(ctx, "samples", "splits", "decisions")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := release.ReadFile("testdata/mini.json")
	if _, err := Import(ctx, s, again, ImportOptions{Split: "validation", Source: "mini.json"}); err != nil {
		t.Fatal(err)
	}
	second := storetest.MustDump(t, s, "samples", "splits", "decisions")
	dirs := map[release.Format]string{release.JSON: t.TempDir(), release.JSONL: t.TempDir()}
	for f, d := range dirs {
		if _, err := Export(ctx, s, d, f); err != nil {
			t.Fatal(err)
		}
	}
	readJSON := func(f release.Format, rel string) []byte {
		b, err := os.ReadFile(filepath.Join(dirs[f], rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	in, _ := os.ReadFile("testdata/mini.json")
	tests := []struct {
		name string
		ok   func() (bool, string)
	}{
		{"import counts", func() (bool, string) {
			return res.Records == 2 && res.Assigned == 1 && res.Splits[release.Test] == 1 && res.Splits[release.Validation] == 1, "result " + jsonString(res)
		}},
		{"import is idempotent", func() (bool, string) { return first == second, "second import changed the store:\n" + second }},
		{"unnamed record gets the next id", func() (bool, string) {
			_, err := s.SampleByID(ctx, "SCG-000008")
			return err == nil, "SCG-000008 missing"
		}},
		{"split field wins over --split", func() (bool, string) {
			b := readJSON(release.JSON, "splits/test.json")
			return strings.Contains(string(b), `"SCG-000007"`) && !strings.Contains(string(b), `"SCG-000008"`), string(b)
		}},
		{"unknown fields kept, named record unchanged", func() (bool, string) {
			got := rawAny(t, readJSON(release.JSON, "sccgbench.json"))
			want := rawAny(t, in)
			return reflect.DeepEqual(got[0], want[0]), firstDiff(got[:1], want[:1])
		}},
		{"html characters written as themselves", func() (bool, string) {
			b := readJSON(release.JSON, "sccgbench.json")
			return bytes.Contains(b, []byte("<REDACTED_RAPIDAPI_KEY>")) && bytes.Contains(b, []byte("& return <result>")), "escaped"
		}},
		{"jsonl equals json", func() (bool, string) {
			a := decodeAny(t, readJSON(release.JSON, "sccgbench.json"))
			b := decodeAny(t, readJSON(release.JSONL, "sccgbench.jsonl"))
			return reflect.DeepEqual(a, b) && bytes.Count(readJSON(release.JSONL, "sccgbench.jsonl"), []byte("\n")) == 2, firstDiff(a, b)
		}},
		{"empty split is an empty array", func() (bool, string) {
			b := strings.TrimSpace(string(readJSON(release.JSON, "splits/train.json")))
			return b == "[]", b
		}},
		{"stats per split", func() (bool, string) {
			var st release.Stats
			if err := json.Unmarshal(readJSON(release.JSON, "stats.json"), &st); err != nil {
				return false, err.Error()
			}
			return st.Total.Samples == 2 && st.Splits[release.Test] == 1 && st.Splits[release.Validation] == 1 && st.Splits[release.Train] == 0 &&
				st.Per[release.Test].DocMatchType["url"] == 1, jsonString(st)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if ok, msg := tc.ok(); !ok {
				t.Error(msg)
			}
		})
	}
}

func TestImportRefusesBuiltCollision(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	err := s.Update(ctx, func(tx *store.Tx) error {
		return tx.PutSample(ctx, &store.Sample{SampleID: "SCG-000007", Origin: store.OriginBuilt})
	})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := release.ReadFile("testdata/mini.json")
	if _, err := Import(ctx, s, recs, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "already a built sample") {
		t.Errorf("err = %v, want a collision with the built sample", err)
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
