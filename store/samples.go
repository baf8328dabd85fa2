package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// Sample origins.
const (
	OriginBuilt    = "built"
	OriginImported = "imported"
)

// Intent is one attempt at a sample's natural-language intent, with the LeakCheck
// result that decided whether it may be published. A built sample's intents belong
// to its kept function (FunctionID), an imported sample's to the sample.
type Intent struct {
	ID          int64  `json:"id"`
	SampleRowID int64  `json:"-"`
	FunctionID  int64  `json:"function_id,omitempty"`
	Attempt     int    `json:"attempt"`
	Role        string `json:"role,omitempty"` // comment (the sample's comments) | paired (beside the original, --also-original)
	Kind        string `json:"kind"`           // original | intent_humanlike | intent_redacted
	// Path is how the text was made: original (the human comment), llm, llm_retry
	// (after the stricter prompt), offline (the deterministic generator), fallback
	// (the offline generator after the model leaked twice or failed).
	Path     string          `json:"path,omitempty"`
	Model    string          `json:"model,omitempty"`
	Prompt   string          `json:"prompt,omitempty"`   // the chat messages sent, as JSON; "" when no request was made
	Response string          `json:"response,omitempty"` // the model's raw answer
	Text     string          `json:"text"`
	Leak     json.RawMessage `json:"leak,omitempty"`
	Passed   bool            `json:"passed"`
	// Decision is what was done with the attempt: accepted, retry (leaked or
	// unusable: ask again), fallback (leaked or unusable again: the offline generator
	// writes the intent), dropped (the sample is left out), error (the request failed).
	Decision  string `json:"decision,omitempty"`
	Reason    string `json:"reason,omitempty"`
	InputHash string `json:"input_hash,omitempty"`
	CreatedAt string `json:"created_at"`
}

// Intent roles.
const (
	RoleComment = "comment"
	RolePaired  = "paired"
)

// Intent decisions.
const (
	IntentAccepted = "accepted"
	IntentRetry    = "retry"
	IntentFallback = "fallback"
	IntentDropped  = "dropped"
	IntentError    = "error"
)

// SplitAssignment places one sample in a split.
type SplitAssignment struct {
	SampleRowID int64  `json:"-"`
	SampleID    string `json:"sample_id"`
	Split       string `json:"split"`
	Family      string `json:"family,omitempty"`
	Seed        int64  `json:"seed"`
}

const sampleCols = `s.id, s.sample_id, COALESCE(s.function_id,0), COALESCE(s.alignment_id,0), s.origin, s.api_name, s.api_host,
	s.function_name, s.code, s.comments_source, s.doc_match_type, s.record, s.created_at, s.sort_key, COALESCE(sp.split,'')`

func scanSample(sc interface{ Scan(...any) error }) (Sample, error) {
	var s Sample
	var rec string
	err := sc.Scan(&s.ID, &s.SampleID, &s.FunctionID, &s.AlignmentID, &s.Origin, &s.APIName, &s.APIHost,
		&s.FunctionName, &s.Code, &s.CommentsSource, &s.DocMatchType, &rec, &s.CreatedAt, &s.SortKey, &s.Split)
	s.Record = json.RawMessage(rec)
	return s, err
}

// zeroAsNull maps a zero id to SQL NULL for optional foreign keys.
func zeroAsNull(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// PutSample inserts s or, when a sample with its sample_id exists, updates it in
// place (keeping its row id, intents and split). It sets s.ID. Writing the same
// sample twice changes nothing.
func (t *Tx) PutSample(ctx context.Context, s *Sample) error {
	if s.SampleID == "" {
		return errors.New("put sample: empty sample_id")
	}
	if s.CreatedAt == "" {
		s.CreatedAt = t.Now()
	}
	rec := string(s.Record)
	if rec == "" {
		rec = "{}"
	}
	res, err := t.exec(ctx, `INSERT INTO samples(sample_id, function_id, alignment_id, origin, api_name, api_host, function_name,
		code, comments_source, doc_match_type, record, created_at, sort_key) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(sample_id) DO UPDATE SET function_id=excluded.function_id, alignment_id=excluded.alignment_id,
		origin=excluded.origin, api_name=excluded.api_name, api_host=excluded.api_host, function_name=excluded.function_name,
		code=excluded.code, comments_source=excluded.comments_source, doc_match_type=excluded.doc_match_type,
		record=excluded.record, sort_key=excluded.sort_key`,
		s.SampleID, zeroAsNull(s.FunctionID), zeroAsNull(s.AlignmentID), s.Origin, s.APIName, s.APIHost, s.FunctionName,
		s.Code, s.CommentsSource, s.DocMatchType, rec, s.CreatedAt, s.SortKey)
	if err != nil {
		return fmt.Errorf("put sample %s: %w", s.SampleID, err)
	}
	s.ID, err = t.lastID(ctx, res, `SELECT id FROM samples WHERE sample_id=?`, s.SampleID)
	if err != nil {
		return fmt.Errorf("put sample %s: %w", s.SampleID, err)
	}
	return nil
}

// RenameSample gives the sample in row id a new sample_id.
func (t *Tx) RenameSample(ctx context.Context, id int64, sampleID string) error {
	if _, err := t.exec(ctx, `UPDATE samples SET sample_id=? WHERE id=?`, sampleID, id); err != nil {
		return fmt.Errorf("rename sample %d to %s: %w", id, sampleID, err)
	}
	return nil
}

// DeleteSample removes the sample in row id with its intents and split.
func (t *Tx) DeleteSample(ctx context.Context, id int64) error {
	if _, err := t.exec(ctx, `DELETE FROM samples WHERE id=?`, id); err != nil {
		return fmt.Errorf("delete sample %d: %w", id, err)
	}
	return nil
}

// Samples returns every sample with its split (if assigned), in sample_id order.
func (s *Store) Samples(ctx context.Context) ([]Sample, error) {
	return queryList(ctx, s, "list samples", scanSample, `SELECT `+sampleCols+` FROM samples s LEFT JOIN splits sp ON sp.sample_id = s.id ORDER BY s.sample_id`)
}

// SampleByID returns the sample named sampleID (SCG-000001), or ErrNotFound.
func (s *Store) SampleByID(ctx context.Context, sampleID string) (*Sample, error) {
	smp, err := scanSample(s.read.QueryRowContext(ctx, `SELECT `+sampleCols+` FROM samples s LEFT JOIN splits sp ON sp.sample_id = s.id WHERE s.sample_id=?`, sampleID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sample %s: %w", sampleID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sample %s: %w", sampleID, err)
	}
	return &smp, nil
}

// PutIntent records one intent attempt of a sample (FunctionID set: of a kept
// function); a second write of the same (owner, attempt) replaces the first.
func (t *Tx) PutIntent(ctx context.Context, in Intent) error {
	if in.CreatedAt == "" {
		in.CreatedAt = t.Now()
	}
	if in.Role == "" {
		in.Role = RoleComment
	}
	leak := string(in.Leak)
	if leak == "" {
		leak = "{}"
	}
	owner, target := "sample", "(sample_id, attempt) WHERE sample_id IS NOT NULL"
	fid, sid := any(nil), any(in.SampleRowID)
	if in.FunctionID != 0 {
		owner, target = "function", "(function_id, attempt) WHERE function_id IS NOT NULL"
		fid, sid = in.FunctionID, nil
	}
	_, err := t.exec(ctx, `INSERT INTO intents(function_id, sample_id, attempt, role, kind, path, model, prompt, response, text, leak,
		passed, decision, reason, input_hash, created_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT`+target+` DO UPDATE SET role=excluded.role, kind=excluded.kind, path=excluded.path,
		model=excluded.model, prompt=excluded.prompt, response=excluded.response, text=excluded.text, leak=excluded.leak,
		passed=excluded.passed, decision=excluded.decision, reason=excluded.reason, input_hash=excluded.input_hash`,
		fid, sid, in.Attempt, in.Role, in.Kind, in.Path, in.Model, in.Prompt, in.Response, in.Text, leak, in.Passed,
		in.Decision, in.Reason, in.InputHash, in.CreatedAt)
	if err != nil {
		return fmt.Errorf("put intent %d of %s %d: %w", in.Attempt, owner, max(in.FunctionID, in.SampleRowID), err)
	}
	return nil
}

const intentCols = `id, COALESCE(function_id,0), COALESCE(sample_id,0), attempt, role, kind, path, model, prompt, response, text, leak,
	passed, decision, reason, input_hash, created_at`

func scanIntent(r rowScanner) (Intent, error) {
	var in Intent
	var leak string
	err := r.Scan(&in.ID, &in.FunctionID, &in.SampleRowID, &in.Attempt, &in.Role, &in.Kind, &in.Path, &in.Model, &in.Prompt,
		&in.Response, &in.Text, &leak, &in.Passed, &in.Decision, &in.Reason, &in.InputHash, &in.CreatedAt)
	in.Leak = json.RawMessage(leak)
	return in, err
}

// Intents returns the intent attempts of the imported sample in row id, in attempt
// order (a built sample's are its function's: FunctionIntents).
func (s *Store) Intents(ctx context.Context, sampleRowID int64) ([]Intent, error) {
	return queryList(ctx, s, fmt.Sprintf("intents of sample %d", sampleRowID), scanIntent,
		`SELECT `+intentCols+` FROM intents WHERE sample_id=? ORDER BY attempt`, sampleRowID)
}

// ReplaceSplits replaces every split assignment with as, in one transaction step.
func (t *Tx) ReplaceSplits(ctx context.Context, as []SplitAssignment) error {
	if _, err := t.exec(ctx, `DELETE FROM splits`); err != nil {
		return fmt.Errorf("clear splits: %w", err)
	}
	for _, a := range as {
		if err := t.SetSplit(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// SetSplit places one sample in a split, replacing an earlier assignment.
func (t *Tx) SetSplit(ctx context.Context, a SplitAssignment) error {
	_, err := t.exec(ctx, `INSERT INTO splits(sample_id, split, family, seed) VALUES(?,?,?,?)
		ON CONFLICT(sample_id) DO UPDATE SET split=excluded.split, family=excluded.family, seed=excluded.seed`,
		a.SampleRowID, a.Split, a.Family, a.Seed)
	if err != nil {
		return fmt.Errorf("set split of sample %d: %w", a.SampleRowID, err)
	}
	return nil
}

// Splits returns every split assignment in sample_id order.
func (s *Store) Splits(ctx context.Context) ([]SplitAssignment, error) {
	scan := func(r rowScanner) (SplitAssignment, error) {
		var a SplitAssignment
		err := r.Scan(&a.SampleRowID, &a.SampleID, &a.Split, &a.Family, &a.Seed)
		return a, err
	}
	return queryList(ctx, s, "list splits", scan, `SELECT sp.sample_id, s.sample_id, sp.split, sp.family, sp.seed
		FROM splits sp JOIN samples s ON s.id = sp.sample_id ORDER BY s.sample_id`)
}

// SplitOf returns the split assignment of the sample in row id, or ErrNotFound.
func (s *Store) SplitOf(ctx context.Context, sampleRowID int64) (*SplitAssignment, error) {
	var a SplitAssignment
	err := s.read.QueryRowContext(ctx, `SELECT sp.sample_id, s.sample_id, sp.split, sp.family, sp.seed
		FROM splits sp JOIN samples s ON s.id = sp.sample_id WHERE sp.sample_id=?`, sampleRowID).
		Scan(&a.SampleRowID, &a.SampleID, &a.Split, &a.Family, &a.Seed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("split of sample %d: %w", sampleRowID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("split of sample %d: %w", sampleRowID, err)
	}
	return &a, nil
}

// DedupClusterMap maps each de-duplicated function to the cluster (representative
// function id) align put it in. Functions never clustered are absent.
func (s *Store) DedupClusterMap(ctx context.Context) (map[int64]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT function_id, cluster FROM dedup`)
	if err != nil {
		return nil, fmt.Errorf("dedup clusters: %w", err)
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var f, c int64
		if err := rows.Scan(&f, &c); err != nil {
			return nil, fmt.Errorf("dedup clusters: %w", err)
		}
		out[f] = c
	}
	return out, rows.Err()
}

// DedupEntry is a function's place in align's de-duplication.
type DedupEntry struct {
	FunctionID int64   `json:"function_id"`
	Cluster    int64   `json:"cluster"`
	Kind       string  `json:"kind"` // representative | exact | near
	Similarity float64 `json:"similarity"`
	// Rank is the function's place in align's order of preference over every
	// aligned function (1 first); decontam follows it. 0 when unranked.
	Rank int `json:"rank"`
}

// Lineage is everything the store knows about where one sample came from, for
// `sccg audit`. Parts the store has no row for are nil.
type Lineage struct {
	Sample      Sample           `json:"sample"`
	Split       *SplitAssignment `json:"split,omitempty"`
	Intents     []Intent         `json:"intents"`
	Masked      *MaskedCode      `json:"masked,omitempty"` // ỹ, the code the intent generators read
	Function    *Function        `json:"function,omitempty"`
	File        *File            `json:"file,omitempty"`
	FileHits    []FileHit        `json:"file_hits,omitempty"`
	Corpus      []CorpusSource   `json:"corpus_sources,omitempty"` // the bulk-corpus rows the file was read from
	Repository  *Repository      `json:"repository,omitempty"`
	Alignments  []Alignment      `json:"alignments,omitempty"`
	Endpoint    *Endpoint        `json:"endpoint,omitempty"` // of the sample's alignment
	API         *API             `json:"api,omitempty"`
	Dedup       *DedupEntry      `json:"dedup,omitempty"`
	ClusterSize int              `json:"cluster_size,omitempty"`
	Kept        *KeptFunction    `json:"kept,omitempty"` // decontam's kept row: redacted code and redactions
	Decisions   []Decision       `json:"decisions"`
}

// SampleLineage gathers the lineage of the sample named sampleID, or ErrNotFound.
func (s *Store) SampleLineage(ctx context.Context, sampleID string) (*Lineage, error) {
	smp, err := s.SampleByID(ctx, sampleID)
	if err != nil {
		return nil, err
	}
	l := &Lineage{Sample: *smp}
	if a, err := s.SplitOf(ctx, smp.ID); err == nil {
		l.Split = a
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if smp.FunctionID != 0 {
		l.Intents, err = s.FunctionIntents(ctx, smp.FunctionID)
		if err == nil {
			l.Masked, err = s.MaskedCode(ctx, smp.FunctionID)
			if errors.Is(err, ErrNotFound) {
				err = nil
			}
		}
	} else {
		l.Intents, err = s.Intents(ctx, smp.ID)
	}
	if err != nil {
		return nil, err
	}
	subjects := [][2]string{{"sample", smp.SampleID}, {"sample", strconv.FormatInt(smp.ID, 10)}}
	if smp.FunctionID != 0 {
		if err := s.lineageCode(ctx, l); err != nil {
			return nil, fmt.Errorf("lineage of %s: %w", sampleID, err)
		}
		fid := strconv.FormatInt(smp.FunctionID, 10)
		subjects = append(subjects, [2]string{"function", fid})
		if l.File != nil {
			subjects = append(subjects, [2]string{"file", strconv.FormatInt(l.File.ID, 10)}, [2]string{"file", l.File.URL})
		}
		if l.Repository != nil {
			subjects = append(subjects, [2]string{"repository", l.Repository.FullName}, [2]string{"repo", l.Repository.FullName})
		}
	}
	seen := map[int64]bool{}
	for _, sub := range subjects {
		if sub[1] == "" {
			continue
		}
		ds, err := s.Decisions(ctx, sub[0], sub[1])
		if err != nil {
			return nil, fmt.Errorf("lineage of %s: decisions: %w", sampleID, err)
		}
		for _, d := range ds {
			if !seen[d.ID] {
				seen[d.ID] = true
				l.Decisions = append(l.Decisions, d)
			}
		}
	}
	sort.Slice(l.Decisions, func(i, j int) bool { return l.Decisions[i].ID < l.Decisions[j].ID })
	return l, nil
}

// lineageCode fills the function, file, repository, alignments, endpoint and
// dedup parts of a built sample's lineage. Rows that are gone are left nil.
func (s *Store) lineageCode(ctx context.Context, l *Lineage) error {
	f, err := s.Function(ctx, l.Sample.FunctionID)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	l.Function = f
	if fl, err := s.File(ctx, f.FileID); err == nil {
		l.File = fl
		if l.FileHits, err = s.FileHits(ctx, fl.ID); err != nil {
			return err
		}
		if l.Corpus, err = s.CorpusSources(ctx, fl.ID); err != nil {
			return err
		}
		if r, err := s.Repository(ctx, fl.RepoID); err == nil {
			l.Repository = r
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if l.Alignments, err = s.sampleAlignments(ctx, f.ID); err != nil {
		return err
	}
	var epID, apiOf int64
	for _, a := range l.Alignments {
		if a.ID == l.Sample.AlignmentID || (l.Sample.AlignmentID == 0 && a.IsPrimary) {
			epID, apiOf = a.EndpointID, a.APIID
		}
	}
	if epID != 0 {
		eps, err := s.endpoints(ctx, `e.id=?`, epID)
		if err != nil {
			return err
		}
		if len(eps) == 1 {
			l.Endpoint = &eps[0]
			apiOf = eps[0].APIID
		}
	}
	if apiOf != 0 {
		if a, err := s.API(ctx, apiOf); err == nil {
			l.API = a
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	var d DedupEntry
	err = s.read.QueryRowContext(ctx, `SELECT function_id, cluster, kind, similarity, rank FROM dedup WHERE function_id=?`, f.ID).
		Scan(&d.FunctionID, &d.Cluster, &d.Kind, &d.Similarity, &d.Rank)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("dedup of function %d: %w", f.ID, err)
	}
	if err == nil {
		l.Dedup = &d
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM dedup WHERE cluster=?`, d.Cluster).Scan(&l.ClusterSize); err != nil {
			return fmt.Errorf("dedup cluster %d: %w", d.Cluster, err)
		}
	}
	k := KeptFunction{FunctionID: f.ID}
	var red string
	err = s.read.QueryRowContext(ctx, `SELECT code, source, redactions, input_hash, kept_at FROM kept WHERE function_id=?`, f.ID).
		Scan(&k.Code, &k.Source, &red, &k.InputHash, &k.KeptAt)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("kept row of function %d: %w", f.ID, err)
	}
	if err == nil {
		k.Redactions = json.RawMessage(red)
		for _, a := range l.Alignments {
			if a.IsPrimary {
				k.Alignment = a
			}
		}
		l.Kept = &k
	}
	return nil
}

// sampleAlignments returns every alignment of function fid in call order.
func (s *Store) sampleAlignments(ctx context.Context, fid int64) ([]Alignment, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, function_id, call_index, COALESCE(api_id,0), COALESCE(endpoint_id,0), host, route, method,
		doc_match_type, endpoint_source, params, params_source, evidence, alternatives, is_primary FROM alignments WHERE function_id=? ORDER BY call_index`, fid)
	if err != nil {
		return nil, fmt.Errorf("alignments of function %d: %w", fid, err)
	}
	defer rows.Close()
	var out []Alignment
	for rows.Next() {
		var a Alignment
		var params, ev, alt string
		if err := rows.Scan(&a.ID, &a.FunctionID, &a.CallIndex, &a.APIID, &a.EndpointID, &a.Host, &a.Route, &a.Method,
			&a.DocMatchType, &a.EndpointSource, &params, &a.ParamsSource, &ev, &alt, &a.IsPrimary); err != nil {
			return nil, fmt.Errorf("alignments of function %d: %w", fid, err)
		}
		_ = json.Unmarshal([]byte(params), &a.Params)
		a.Evidence, a.Alternatives = json.RawMessage(ev), json.RawMessage(alt)
		out = append(out, a)
	}
	return out, rows.Err()
}

// SampleOrigin is what the splitter needs to know about a built sample's source:
// the API's owner and source, and the near-duplicate cluster of its function.
type SampleOrigin struct {
	Owner     string
	APISource string
	Cluster   int64
}

// SampleOrigins returns the origin facts of every sample that has any, by row id.
func (s *Store) SampleOrigins(ctx context.Context) (map[int64]SampleOrigin, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT s.id, COALESCE(a.owner,''), COALESCE(a.source,''), COALESCE(d.cluster,0)
		FROM samples s LEFT JOIN alignments al ON al.id = s.alignment_id LEFT JOIN apis a ON a.id = al.api_id
		LEFT JOIN dedup d ON d.function_id = s.function_id`)
	if err != nil {
		return nil, fmt.Errorf("sample origins: %w", err)
	}
	defer rows.Close()
	out := map[int64]SampleOrigin{}
	for rows.Next() {
		var id int64
		var o SampleOrigin
		if err := rows.Scan(&id, &o.Owner, &o.APISource, &o.Cluster); err != nil {
			return nil, fmt.Errorf("sample origins: %w", err)
		}
		if o != (SampleOrigin{}) {
			out[id] = o
		}
	}
	return out, rows.Err()
}
