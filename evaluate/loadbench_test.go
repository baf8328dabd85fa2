package evaluate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/release"
)

func TestLoadBench(t *testing.T) {
	recs, err := release.ReadFile(filepath.Join("testdata", "experiment_bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	// an export directory: sccgbench.json and splits/NAME.json, no split fields
	dir := t.TempDir()
	var plain, train []release.Record
	for _, r := range recs {
		s, _, _ := RecordSplit(r)
		delete(r.Extra, "split")
		plain = append(plain, r)
		if s == release.Train {
			train = append(train, r)
		}
	}
	write := func(rel string, rs []release.Record) {
		b, err := release.Encode(rs, release.JSON)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sccgbench.json", plain)
	write("splits/train.json", train)
	write("splits/test.json", plain[:2])
	plainFile := filepath.Join(dir, "sccgbench.json")

	tests := []struct {
		name, path, split string
		samples, all      int
		err               string
	}{
		{"file, every record", filepath.Join("testdata", "experiment_bench.json"), "", 7, 7, ""},
		{"file, split field", filepath.Join("testdata", "experiment_bench.json"), "train", 1, 7, ""},
		{"file, split spelling", filepath.Join("testdata", "experiment_bench.json"), "testing", 6, 7, ""},
		{"export dir", dir, "", 7, 7, ""},
		{"export dir, split file", dir, "test", 2, 7, ""},
		{"file without split fields", plainFile, "test", 0, 0, "no record names its split"},
		{"unknown split", dir, "holdout", 0, 0, "unknown split"},
		{"missing split file", dir, "validation", 0, 0, "no splits/validation.json"},
		// the tool's own export: a split file given alone, whose records carry no split field
		{"a split file alone, named for its split", filepath.Join(dir, "splits", "test.json"), "test", 2, 2, ""},
		{"a split file alone, another split", filepath.Join(dir, "splits", "test.json"), "train", 0, 0, "no sample is in the train split (its samples are in: test 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := LoadBench(tt.path, tt.split)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Samples) != tt.samples || len(b.All) != tt.all {
				t.Errorf("samples %d, all %d; want %d, %d", len(b.Samples), len(b.All), tt.samples, tt.all)
			}
		})
	}
	// the store's assignment of an imported file's samples
	stored := map[string]string{plain[0].SampleID: release.Validation, plain[1].SampleID: release.Test}
	if b, err := LoadBenchStored(plainFile, "validation", stored); err != nil || len(b.Samples) != 1 || b.Samples[0].SampleID != plain[0].SampleID {
		t.Errorf("split from the store: %v", err)
	}
	b, _ := LoadBench(dir, "test")
	if tr, err := b.TrainSplit(); err != nil || len(tr) != 1 || tr[0].SampleID != "SYN-0003" {
		t.Errorf("train split of the export dir: %v, %v", tr, err)
	}
	b, _ = LoadBench(plainFile, "")
	if _, err := b.TrainSplit(); err == nil {
		t.Error("a file without split fields has a train split")
	}
}
