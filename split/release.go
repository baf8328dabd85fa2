package split

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sccg/store"
)

// The split names, in the order they are listed and exported.
const (
	Train      = "train"
	Validation = "validation"
	Test       = "test"
)

// Names lists the splits in order.
var Names = []string{Train, Validation, Test}

// NormalizeName maps the spellings a release may use for a split to its name, or
// returns an error for an unknown one.
func NormalizeName(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "train", "training":
		return Train, nil
	case "validation", "valid", "val", "dev":
		return Validation, nil
	case "test", "testing":
		return Test, nil
	}
	return "", fmt.Errorf("unknown split %q (want train, validation or test)", s)
}

// FormatID is the published sample id for number n: SCG-000001.
func FormatID(n int) string { return fmt.Sprintf("SCG-%06d", n) }

// idNumber returns n for an id SCG-n, or 0.
func idNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "SCG-"))
	if err != nil || !strings.HasPrefix(id, "SCG-") {
		return 0
	}
	return n
}

// recordSortKey is the stable key samples are numbered by: repository, file path,
// function name, host, route. It never depends on the order records were read in.
func recordSortKey(r *Record) string {
	return strings.Join([]string{strings.ToLower(r.GitHubInfo.Repo), r.GitHubInfo.FilePath, r.FunctionName,
		strings.ToLower(r.APIHost), r.APIMetadata.Route, r.APIMetadata.Method, r.Code.CompleteFunction}, "\x00")
}

// ImportOptions configure Import.
type ImportOptions struct {
	// Split is the split of records that do not name one in a "split" field.
	Split string
	// Source names where the records came from, for the decisions.
	Source string
}

// ImportResult counts what an import did.
type ImportResult struct {
	Records  int            `json:"records"`
	Assigned int            `json:"ids_assigned"` // records that came without a sample_id
	Splits   map[string]int `json:"splits"`
}

// Import loads recs into the store as imported samples, each record kept whole.
// Records without a sample_id get the next free ones in a stable order. Importing
// the same records twice changes nothing.
func Import(ctx context.Context, s *store.Store, recs []Record, opt ImportOptions) (*ImportResult, error) {
	def := ""
	if opt.Split != "" {
		n, err := NormalizeName(opt.Split)
		if err != nil {
			return nil, err
		}
		def = n
	}
	existing, err := s.Samples(ctx)
	if err != nil {
		return nil, err
	}
	origin := map[string]string{}
	byKey := map[string]string{} // sort key → sample_id of imported samples
	maxN := 0
	for _, e := range existing {
		origin[e.SampleID] = e.Origin
		if e.Origin == store.OriginImported && e.SortKey != "" {
			byKey[e.SortKey] = e.SampleID
		}
		maxN = max(maxN, idNumber(e.SampleID))
	}
	var unnamed []int
	seen := map[string]bool{}
	for i := range recs {
		id := recs[i].SampleID
		if id == "" {
			// A record imported before without an id keeps the one it was given.
			if prev, ok := byKey[recordSortKey(&recs[i])]; ok && !seen[prev] {
				recs[i].SampleID = prev
				seen[prev] = true
				continue
			}
			unnamed = append(unnamed, i)
			continue
		}
		if seen[id] {
			return nil, fmt.Errorf("import: sample_id %s appears twice", id)
		}
		seen[id] = true
		if o, ok := origin[id]; ok && o != store.OriginImported {
			return nil, fmt.Errorf("import: sample_id %s is already a %s sample in this store", id, o)
		}
		maxN = max(maxN, idNumber(id))
	}
	sort.SliceStable(unnamed, func(a, b int) bool { return recordSortKey(&recs[unnamed[a]]) < recordSortKey(&recs[unnamed[b]]) })
	res := &ImportResult{Records: len(recs), Assigned: len(unnamed), Splits: map[string]int{}}
	for _, i := range unnamed {
		maxN++
		recs[i].SampleID = FormatID(maxN)
	}
	err = s.Update(ctx, func(tx *store.Tx) error {
		for i := range recs {
			if err := ctx.Err(); err != nil {
				return err
			}
			r := &recs[i]
			sp := def
			if raw, ok := r.Extra["split"]; ok {
				var name string
				if err := json.Unmarshal(raw, &name); err != nil {
					return fmt.Errorf("import %s: split field: %w", r.SampleID, err)
				}
				if sp, err = NormalizeName(name); err != nil {
					return fmt.Errorf("import %s: %w", r.SampleID, err)
				}
			}
			b, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("import %s: %w", r.SampleID, err)
			}
			smp := store.Sample{
				SampleID: r.SampleID, Origin: store.OriginImported, APIName: r.APIName, APIHost: r.APIHost,
				FunctionName: r.FunctionName, Code: r.Code.CompleteFunction, CommentsSource: r.CommentsSource,
				DocMatchType: r.APIMetadata.DocMatchType, Record: b, SortKey: recordSortKey(r),
			}
			if err := tx.PutSample(ctx, &smp); err != nil {
				return err
			}
			if sp != "" {
				if err := tx.SetSplit(ctx, store.SplitAssignment{SampleRowID: smp.ID, Split: sp, Family: "imported"}); err != nil {
					return err
				}
				res.Splits[sp]++
			}
			ev := map[string]any{"source": opt.Source}
			if sp != "" {
				ev["split"] = sp
			}
			if err := tx.RecordDecision(ctx, store.Decision{Stage: "import", SubjectKind: "sample", Subject: r.SampleID,
				Verdict: store.Kept, Reason: "imported from a published-format release", Evidence: ev}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Format is an export file format.
type Format string

// Export formats.
const (
	JSON  Format = "json"  // one JSON array per file
	JSONL Format = "jsonl" // one record per line
)

// ExportResult says what Export wrote.
type ExportResult struct {
	Dir   string         `json:"dir"`
	Files []string       `json:"files"`
	Stats Stats          `json:"stats"`
	Count map[string]int `json:"count"`
}

// Records returns every sample of the store as a published-format record, in
// sample_id order, with the split of each ("" when unassigned).
func Records(ctx context.Context, s *store.Store) ([]Record, []string, error) {
	smps, err := s.Samples(ctx)
	if err != nil {
		return nil, nil, err
	}
	recs := make([]Record, len(smps))
	splits := make([]string, len(smps))
	for i, smp := range smps {
		if err := json.Unmarshal(smp.Record, &recs[i]); err != nil {
			return nil, nil, fmt.Errorf("sample %s: record: %w", smp.SampleID, err)
		}
		recs[i].SampleID = smp.SampleID
		splits[i] = smp.Split
	}
	return recs, splits, nil
}

// Export writes the store's benchmark into dir: sccgbench.json (every sample),
// splits/{train,validation,test}.json and stats.json (.jsonl for JSONL). The output
// depends only on the store's samples, so equal stores export byte-identical files.
func Export(ctx context.Context, s *store.Store, dir string, format Format) (*ExportResult, error) {
	if format == "" {
		format = JSON
	}
	if format != JSON && format != JSONL {
		return nil, fmt.Errorf("export: unknown format %q (want json or jsonl)", format)
	}
	recs, splits, err := Records(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "splits"), 0o755); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	res := &ExportResult{Dir: dir, Count: map[string]int{}}
	write := func(rel string, rs []Record) error {
		b, err := Encode(rs, format)
		if err != nil {
			return fmt.Errorf("export %s: %w", rel, err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		res.Files = append(res.Files, rel)
		res.Count[rel] = len(rs)
		return nil
	}
	ext := "." + string(format)
	if err := write("sccgbench"+ext, recs); err != nil {
		return nil, err
	}
	for _, name := range Names {
		var rs []Record
		for i := range recs {
			if splits[i] == name {
				rs = append(rs, recs[i])
			}
		}
		if err := write(filepath.Join("splits", name+ext), rs); err != nil {
			return nil, err
		}
	}
	res.Stats = ComputeStats(recs, func(i int) string { return splits[i] })
	sb, err := marshalIndent(res.Stats)
	if err != nil {
		return nil, fmt.Errorf("export stats: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stats.json"), sb, 0o644); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	res.Files = append(res.Files, "stats.json")
	return res, nil
}

// Encode renders records as a JSON array (indented, one record after another) or
// as JSON Lines. Characters like < and & are written as themselves, not escaped.
func Encode(recs []Record, format Format) ([]byte, error) {
	if recs == nil {
		recs = []Record{}
	}
	if format == JSONL {
		var buf bytes.Buffer
		for i := range recs {
			b, err := json.Marshal(&recs[i])
			if err != nil {
				return nil, fmt.Errorf("record %s: %w", recs[i].SampleID, err)
			}
			buf.Write(unescapeHTML(b))
			buf.WriteByte('\n')
		}
		return buf.Bytes(), nil
	}
	return marshalIndent(recs)
}

func marshalIndent(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(unescapeHTML(b), '\n'), nil
}

// unescapeHTML turns the \u003c, \u003e and \u0026 escapes encoding/json writes
// back into <, > and &; it leaves escaped backslashes alone.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, c, b[i+1])
		i++
	}
	return out
}

// ErrNoSamples is returned by stages that need samples when the store has none.
var ErrNoSamples = errors.New("the store has no samples (build them, or import a benchmark)")
