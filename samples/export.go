package samples

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sccg/release"
	"sccg/store"
)

// recordSortKey is the stable key samples are numbered by: repository, file path,
// function name, host, route. It never depends on the order records were read in.
func recordSortKey(r *release.Record) string {
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

// Counts are the result's figures as a run records them.
func (r *ImportResult) Counts() map[string]int64 {
	c := map[string]int64{"records": int64(r.Records), "ids_assigned": int64(r.Assigned)}
	for k, v := range r.Splits {
		c["split_"+k] = int64(v)
	}
	return c
}

// Import loads recs into the store as imported samples, each record kept whole.
// Records without a sample_id get the next free ones in a stable order. Importing
// the same records twice changes nothing. It records itself as one run of the
// import stage.
func Import(ctx context.Context, s *store.Store, recs []release.Record, opt ImportOptions) (*ImportResult, error) {
	args := map[string]any{"source": opt.Source, "split": opt.Split, "records": len(recs)}
	return store.RecordRun(ctx, s, ImportStage, args, func(runID int64) (*ImportResult, error) {
		return importRecords(ctx, s, recs, opt, runID)
	})
}

func importRecords(ctx context.Context, s *store.Store, recs []release.Record, opt ImportOptions, runID int64) (*ImportResult, error) {
	def := ""
	if opt.Split != "" {
		n, err := release.NormalizeName(opt.Split)
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
		maxN = max(maxN, release.IDNumber(e.SampleID))
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
		maxN = max(maxN, release.IDNumber(id))
	}
	sort.SliceStable(unnamed, func(a, b int) bool { return recordSortKey(&recs[unnamed[a]]) < recordSortKey(&recs[unnamed[b]]) })
	res := &ImportResult{Records: len(recs), Assigned: len(unnamed), Splits: map[string]int{}}
	for _, i := range unnamed {
		maxN++
		recs[i].SampleID = release.FormatID(maxN)
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
				if sp, err = release.NormalizeName(name); err != nil {
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
			if err := tx.RecordDecision(ctx, store.Decision{RunID: runID, Stage: ImportStage, SubjectKind: "sample", Subject: r.SampleID,
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

// ExportResult says what Export wrote.
type ExportResult struct {
	Dir   string         `json:"dir"`
	Files []string       `json:"files"`
	Stats release.Stats  `json:"stats"`
	Count map[string]int `json:"count"`
	// Unassigned counts the samples in no split: in the whole benchmark's file,
	// in no split file (each with a decision).
	Unassigned int `json:"unassigned"`
}

// Counts are the result's figures as a run records them: records per file written.
func (r *ExportResult) Counts() map[string]int64 {
	c := map[string]int64{"unassigned": int64(r.Unassigned)}
	for f, n := range r.Count {
		c[f] = int64(n)
	}
	return c
}

// ExportStage is the name exports record their runs and decisions under.
const ExportStage = "export"

// ReasonNoSplit is why a sample is in no split file.
const ReasonNoSplit = "in no split: written to the whole benchmark's file, to no split file (not split yet, or left out by the split: 'sccg why' says which)"

// Records returns every sample of the store as a published-format record, in
// sample_id order, with the split of each ("" when unassigned).
func Records(ctx context.Context, s *store.Store) ([]release.Record, []string, error) {
	smps, err := s.Samples(ctx)
	if err != nil {
		return nil, nil, err
	}
	recs := make([]release.Record, len(smps))
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
// It records itself as one run of the export stage, with a decision on every
// sample it leaves out of the split files.
func Export(ctx context.Context, s *store.Store, dir string, format release.Format) (*ExportResult, error) {
	if format == "" {
		format = release.JSON
	}
	args := map[string]any{"out": dir, "format": string(format)}
	return store.RecordRun(ctx, s, ExportStage, args, func(runID int64) (*ExportResult, error) {
		return export(ctx, s, dir, format, runID)
	})
}

func export(ctx context.Context, s *store.Store, dir string, format release.Format, runID int64) (*ExportResult, error) {
	if format != release.JSON && format != release.JSONL {
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
	write := func(rel string, rs []release.Record) error {
		b, err := release.Encode(rs, format)
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
	for _, name := range release.Names {
		var rs []release.Record
		for i := range recs {
			if splits[i] == name {
				rs = append(rs, recs[i])
			}
		}
		if err := write(filepath.Join("splits", name+ext), rs); err != nil {
			return nil, err
		}
	}
	if res.Stats, err = ComputeStats(ctx, recs, func(i int) string { return splits[i] }); err != nil {
		return nil, fmt.Errorf("export stats: %w", err)
	}
	sb, err := release.EncodeJSON(res.Stats)
	if err != nil {
		return nil, fmt.Errorf("export stats: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stats.json"), sb, 0o644); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	res.Files = append(res.Files, "stats.json")
	err = s.Update(ctx, func(tx *store.Tx) error {
		for i := range recs {
			if splits[i] != "" {
				continue
			}
			res.Unassigned++
			if err := tx.RecordDecision(ctx, store.Decision{RunID: runID, Stage: ExportStage, SubjectKind: "sample",
				Subject: recs[i].SampleID, Verdict: store.Rejected, Reason: ReasonNoSplit}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return res, nil
}
