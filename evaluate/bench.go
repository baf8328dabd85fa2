package evaluate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sccg/release"
)

// Bench is a benchmark as the experiment commands read it: the samples to run (one
// split, or every record) and every record of the release, which documentation and
// the train split are drawn from.
type Bench struct {
	Samples []release.Record
	All     []release.Record
	// Split is the split Samples are, or "" for every record.
	Split string
	// Path is the file or export directory it was read from.
	Path string
}

// LoadBench reads a benchmark in the published format. path is a release file (a
// JSON array or JSON Lines) or an export directory (sccgbench.json and
// splits/NAME.json, as `sccg export` writes). split, when not empty, picks one
// split: the directory's split file, or the records of the file whose "split" field
// names it; a file whose records name no split is an error.
func LoadBench(path, split string) (*Bench, error) { return LoadBenchStored(path, split, nil) }

// LoadBenchStored is LoadBench with the splits a store assigned to the samples
// it imported (sample_id → split), for the records of a file that neither name
// their split nor come from a file named for one. A record's split is, in order:
// its "split" field, the name of its file (splits/validation.json, dev.jsonl),
// the store's assignment.
func LoadBenchStored(path, split string, stored map[string]string) (*Bench, error) {
	if split != "" {
		name, err := release.NormalizeName(split)
		if err != nil {
			return nil, fmt.Errorf("benchmark %s: %w", path, err)
		}
		split = name
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read benchmark: %w", err)
	}
	if st.IsDir() {
		return loadExportDir(path, split)
	}
	all, err := release.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b := &Bench{All: all, Samples: all, Split: split, Path: path}
	if split == "" {
		return b, nil
	}
	b.Samples = nil
	named := 0
	fromName := release.SplitFromPath(path)
	in := map[string]int{}
	for _, r := range all {
		s, ok, err := RecordSplit(r)
		if err != nil {
			return nil, fmt.Errorf("benchmark %s: %w", path, err)
		}
		if !ok && fromName != "" {
			s, ok = fromName, true
		}
		if !ok && stored[r.SampleID] != "" {
			s, ok = stored[r.SampleID], true
		}
		if ok {
			named++
			in[s]++
		}
		if s == split {
			b.Samples = append(b.Samples, r)
		}
	}
	if named == 0 {
		return nil, fmt.Errorf("benchmark %s: no record names its split (no \"split\" field, a file name that is no split's, no split in the store): "+
			"give the export directory, or import the file with 'sccg import --split %s %s' and pass the same --db", path, split, path)
	}
	if len(b.Samples) == 0 {
		var has []string
		for _, n := range release.Names {
			if in[n] > 0 {
				has = append(has, fmt.Sprintf("%s %d", n, in[n]))
			}
		}
		return nil, fmt.Errorf("benchmark %s: no sample is in the %s split (its samples are in: %s)", path, split, strings.Join(has, ", "))
	}
	return b, nil
}

// RecordSplit returns the split named by a record's "split" field, if it has one.
func RecordSplit(r release.Record) (string, bool, error) {
	raw, ok := r.Extra["split"]
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("%s: split field: %w", r.SampleID, err)
	}
	name, err := release.NormalizeName(s)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", r.SampleID, err)
	}
	return name, true, nil
}

// loadExportDir reads an export directory: every record from sccgbench.json(l) (or,
// without it, the union of the split files) and the samples of one split.
func loadExportDir(dir, split string) (*Bench, error) {
	find := func(base string) (string, bool) {
		for _, ext := range []string{".json", ".jsonl"} {
			p := filepath.Join(dir, base+ext)
			if _, err := os.Stat(p); err == nil {
				return p, true
			}
		}
		return "", false
	}
	b := &Bench{Split: split, Path: dir}
	if p, ok := find("sccgbench"); ok {
		all, err := release.ReadFile(p)
		if err != nil {
			return nil, err
		}
		b.All = all
	} else {
		for _, name := range release.Names {
			p, ok := find(filepath.Join("splits", name))
			if !ok {
				continue
			}
			rs, err := release.ReadFile(p)
			if err != nil {
				return nil, err
			}
			b.All = append(b.All, rs...)
		}
		if len(b.All) == 0 {
			return nil, fmt.Errorf("benchmark %s: a directory with neither sccgbench.json nor splits/*.json", dir)
		}
	}
	if split == "" {
		b.Samples = b.All
		return b, nil
	}
	p, ok := find(filepath.Join("splits", split))
	if !ok {
		return nil, fmt.Errorf("benchmark %s: no splits/%s.json", dir, split)
	}
	rs, err := release.ReadFile(p)
	if err != nil {
		return nil, err
	}
	b.Samples = rs
	return b, nil
}

// TrainSplit returns the train records of the benchmark: the export directory's
// train split, or the records whose split field says train. It is an error when
// the benchmark names no train split.
func (b *Bench) TrainSplit() ([]release.Record, error) {
	if st, err := os.Stat(b.Path); err == nil && st.IsDir() {
		tb, err := loadExportDir(b.Path, release.Train)
		if err != nil {
			return nil, err
		}
		if len(tb.Samples) == 0 {
			return nil, fmt.Errorf("benchmark %s: its train split is empty", b.Path)
		}
		return tb.Samples, nil
	}
	var out []release.Record
	for _, r := range b.All {
		s, _, err := RecordSplit(r)
		if err != nil {
			return nil, err
		}
		if s == release.Train {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("benchmark %s has no train split: give the export directory, or records with a split field", b.Path)
	}
	return out, nil
}
