package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"sccg/internal/blame"
	"sccg/internal/progress"
	"sccg/mine"
	"sccg/store"
)

// LoadOptions configure Load.
type LoadOptions struct {
	// Progress counts one unit per output shard; nil means none.
	Progress progress.Counter
	// Logf, when set, receives one line per shard loaded or skipped.
	Logf func(format string, args ...any)
}

// LoadStats count what Load did.
type LoadStats struct {
	Outputs   int `json:"outputs"`   // output shards the manifest lists
	Loaded    int `json:"loaded"`    // loaded by this run
	Skipped   int `json:"skipped"`   // loaded by an earlier run
	Files     int `json:"files"`     // found files taken in
	Stored    int `json:"stored"`    // (file, API) hits stored
	Rejected  int `json:"rejected"`  // files named a host but were binary or too large
	Corrupt   int `json:"corrupt"`   // corrupt rows and unreadable shards
	Decisions int `json:"decisions"` // decisions recorded
	// LineDates counts the found files whose lines the corpus dated, and the others
	// by why (blame.Reason*: a shard without line dates has no history).
	LineDates blame.Count `json:"line_dates"`
}

// Counts is s as the named counters a store run keeps.
func (s *LoadStats) Counts() map[string]int64 {
	return map[string]int64{"outputs": int64(s.Outputs), "loaded": int64(s.Loaded), "skipped": int64(s.Skipped),
		"files": int64(s.Files), "stored": int64(s.Stored), "rejected": int64(s.Rejected), "corrupt": int64(s.Corrupt),
		"decisions": int64(s.Decisions), "dated": int64(s.LineDates.Dated), "undated": int64(s.LineDates.UndatedTotal())}
}

// lineDates are a found file's line dates as the store keeps them: the corpus's,
// or why there are none.
func lineDates(f *Found, s *LoadStats) string {
	l := blame.Undated(blame.ReasonCorpus)
	if f.LineDates != "" {
		var err error
		if l, err = blame.Decode(f.LineDates); err != nil || !l.Fits(f.Content) {
			l = blame.Undated(blame.ReasonMismatch)
		}
	}
	s.LineDates.Add(l.Undated)
	return l.Encode()
}

// ErrNoManifest is returned by Load for a directory without a manifest: the
// pipeline did not finish, or it is not a pipeline's output directory.
var ErrNoManifest = errors.New("no " + ManifestName + ": the pipeline did not finish, or this is not its --out directory")

// ReadManifest reads the manifest of an output directory.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoManifest)
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	return &m, nil
}

// Load takes the outputs of a pipeline run in dir into the store: each found file
// with its repository, its hits (query layer corpus) and its corpus source, and
// every decision, as the mine stage records them. Each output shard commits in one
// transaction with its done-mark, named by its SHA-256, so a killed load resumes,
// and a shard loaded twice (under any name) changes nothing. Load checks that the
// store has the APIs the job mined for, and each shard's bytes against the
// manifest.
//
// Load records itself as one run of the mine stage.
func Load(ctx context.Context, st *store.Store, dir string, opts LoadOptions) (*LoadStats, error) {
	if opts.Progress == nil {
		opts.Progress = progress.Nop
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("load corpus outputs: %w", err)
	}
	args := map[string]any{"corpus": m.Corpus, "format": m.Format, "outputs": len(m.Outputs),
		"max_file_bytes": m.Filter.MaxFileBytes, "endpoints_per_api": m.Filter.EndpointsPerAPI, "apis": len(m.APIs),
		"languages": m.Filter.Languages}
	return store.RecordRun(ctx, st, mine.Stage, args, func(runID int64) (*LoadStats, error) {
		return load(ctx, st, dir, m, runID, opts)
	})
}

func load(ctx context.Context, st *store.Store, dir string, m *Manifest, runID int64, opts LoadOptions) (*LoadStats, error) {
	if err := checkAPIs(ctx, st, m.APIs); err != nil {
		return nil, err
	}
	done, err := st.DoneUnits(ctx, mine.Stage)
	if err != nil {
		return nil, fmt.Errorf("load corpus outputs: %w", err)
	}
	stats := &LoadStats{Outputs: len(m.Outputs)}
	opts.Progress.SetTotal(int64(len(m.Outputs)))
	defer opts.Progress.Done()
	for _, out := range m.Outputs {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		opts.Progress.Add(1)
		unit := "corpus|" + out.SHA256
		if done[unit] {
			stats.Skipped++
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(out.Name)))
		if err != nil {
			return stats, fmt.Errorf("load %s: %w", out.Name, err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != out.SHA256 {
			return stats, fmt.Errorf("load %s: its SHA-256 is not the one the manifest gives: the file changed after the pipeline wrote it", out.Name)
		}
		recs, err := ReadOutput(data)
		if err != nil {
			return stats, fmt.Errorf("load %s: %w", out.Name, err)
		}
		var s LoadStats
		err = st.Update(ctx, func(tx *store.Tx) error {
			s = LoadStats{}
			for _, r := range recs {
				if err := apply(ctx, tx, r, out.Name, m.CreatedAt, runID, &s); err != nil {
					return err
				}
			}
			return tx.MarkDone(ctx, mine.Stage, unit, runID)
		})
		if err != nil {
			return stats, fmt.Errorf("load %s: %w", out.Name, err)
		}
		done[unit] = true
		stats.Loaded++
		stats.Files += s.Files
		stats.Stored += s.Stored
		stats.Rejected += s.Rejected
		stats.Corrupt += s.Corrupt
		stats.Decisions += s.Decisions
		stats.LineDates.Merge(s.LineDates)
		opts.Logf("mine --load %s: %d records", out.Name, len(recs))
	}
	return stats, nil
}

// checkAPIs fails when an API the job mined for is not in the store under the same
// id: the outputs belong to another store.
func checkAPIs(ctx context.Context, st *store.Store, apis []ManifestAPI) error {
	have, err := st.APIs(ctx)
	if err != nil {
		return fmt.Errorf("load corpus outputs: %w", err)
	}
	slugs := map[int64]string{}
	for _, a := range have {
		slugs[a.ID] = a.Slug
	}
	for _, a := range apis {
		if slugs[a.ID] != a.Slug {
			return fmt.Errorf("load corpus outputs: the job mined for API %d %q, which this store does not have under that id: load into the store the job read its APIs from", a.ID, a.Slug)
		}
	}
	return nil
}

// apply takes one record into the store.
func apply(ctx context.Context, tx *store.Tx, r *Record, output, at string, runID int64, s *LoadStats) error {
	if d := r.Decision; d != nil {
		ev := map[string]any{"shard": d.Source.Shard, "row": d.Source.Row}
		for k, v := range d.Evidence {
			ev[k] = v
		}
		if d.SubjectKind == "file" {
			s.Rejected++
		} else {
			s.Corrupt++
		}
		s.Decisions++
		return tx.RecordDecision(ctx, store.Decision{RunID: runID, Stage: mine.Stage, SubjectKind: d.SubjectKind,
			Subject: d.Subject, Verdict: d.Verdict, Reason: d.Reason, Evidence: ev, CreatedAt: at})
	}
	f := r.File
	repo := f.Repo
	repo.FetchedAt = at
	repoID, err := tx.UpsertRepository(ctx, &repo)
	if err != nil {
		return err
	}
	s.Files++
	strongest := ""
	var fileID int64
	dates := lineDates(f, s)
	for _, h := range f.Hits {
		file := &store.File{RepoID: repoID, Path: f.Path, GitSHA: f.GitSHA, CommitSHA: f.Commit, URL: f.URL, Size: f.Size,
			QueryLayer: store.LayerCorpus, Query: h.Query, APIID: h.APIID, FoundAt: at, LineDates: dates}
		if fileID, err = tx.SaveFile(ctx, file, f.Content); err != nil {
			return err
		}
		s.Stored++
		if strongest == "" || store.LayerRank(h.MatchLayer) < store.LayerRank(strongest) {
			strongest = h.MatchLayer
		}
		ev := map[string]any{"api": h.API, "query_layer": store.LayerCorpus, "match_layer": h.MatchLayer, "query": h.Query,
			"shard": f.Source.Shard, "row": f.Source.Row}
		for _, d := range mine.KeptDecisions(runID, f.URL, h.Host, f.Content, ev) {
			d.CreatedAt = at
			s.Decisions++
			if err := tx.RecordDecision(ctx, d); err != nil {
				return err
			}
		}
	}
	if fileID == 0 {
		return fmt.Errorf("file %s of %s: no hits", f.Path, f.Repo.FullName)
	}
	return tx.AddCorpusSource(ctx, store.CorpusSource{FileID: fileID, Shard: f.Source.Shard, Row: f.Source.Row,
		BlobID: f.Source.BlobID, License: f.Source.License, MatchLayer: strongest, Output: output})
}
