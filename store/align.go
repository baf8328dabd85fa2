package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Dedup kinds.
const (
	DedupRepresentative = "representative"
	DedupExact          = "exact"
	DedupNear           = "near"
)

// KeptFunction is a function decontam kept: its primary alignment and its code with
// credentials replaced by typed placeholders. The sample builder starts from these.
type KeptFunction struct {
	FunctionID int64           `json:"function_id"`
	Alignment  Alignment       `json:"alignment"` // the primary alignment
	Code       string          `json:"code"`      // redacted self-contained code
	Source     string          `json:"source"`    // redacted function as written
	Redactions json.RawMessage `json:"redactions"`
	// Facts are the function's extractor facts (lang.Facts JSON) with credential
	// values (headers, the RapidAPI key, parameter examples) redacted like the code:
	// build published metadata from these, never from Function.Facts.
	Facts     json.RawMessage `json:"facts"`
	InputHash string          `json:"input_hash"`
	KeptAt    string          `json:"kept_at"`
}

// KeptInputHash is the hash KeptFunction.InputHash records: of the unredacted code,
// source and facts, so decontam can tell a stale redaction from a current one.
func KeptInputHash(code, source string, facts []byte) string {
	h := sha256.New()
	h.Write([]byte(code))
	h.Write([]byte{0})
	h.Write([]byte(source))
	h.Write([]byte{0})
	h.Write(facts)
	return hex.EncodeToString(h.Sum(nil))
}

func rawOr(b json.RawMessage, def string) string {
	if len(b) == 0 || string(b) == "null" {
		return def
	}
	return string(b)
}

// SaveAlignments makes as the alignments of function fid, replacing any earlier
// ones (a built sample made from one of those loses its alignment until the sample
// builder runs again); each a's ID and FunctionID are set.
func (t *Tx) SaveAlignments(ctx context.Context, fid int64, as []Alignment) error {
	if _, err := t.exec(ctx, `UPDATE samples SET alignment_id=NULL WHERE alignment_id IN (SELECT id FROM alignments WHERE function_id=?)`, fid); err != nil {
		return fmt.Errorf("save alignments of function %d: %w", fid, err)
	}
	if _, err := t.exec(ctx, `DELETE FROM alignments WHERE function_id=?`, fid); err != nil {
		return fmt.Errorf("save alignments of function %d: %w", fid, err)
	}
	for i := range as {
		a := &as[i]
		a.FunctionID = fid
		ps := a.Params
		if ps == nil {
			ps = []Param{}
		}
		pj, _ := json.Marshal(ps)
		res, err := t.exec(ctx, `INSERT INTO alignments(function_id, call_index, api_id, endpoint_id, host, route, method,
			doc_match_type, endpoint_source, params, params_source, evidence, alternatives, is_primary)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			fid, a.CallIndex, alignNullID(a.APIID), alignNullID(a.EndpointID), a.Host, a.Route, a.Method, a.DocMatchType,
			a.EndpointSource, string(pj), a.ParamsSource, rawOr(a.Evidence, "{}"), rawOr(a.Alternatives, "[]"), a.IsPrimary)
		if err != nil {
			return fmt.Errorf("save alignment %d of function %d: %w", a.CallIndex, fid, err)
		}
		a.ID, _ = res.LastInsertId()
	}
	return nil
}

const alignmentCols = `id, function_id, call_index, COALESCE(api_id,0), COALESCE(endpoint_id,0), host, route, method,
	doc_match_type, endpoint_source, params, params_source, evidence, alternatives, is_primary`

func scanAlignment(sc interface{ Scan(...any) error }, a *Alignment) error {
	var ps, ev, alt string
	if err := sc.Scan(&a.ID, &a.FunctionID, &a.CallIndex, &a.APIID, &a.EndpointID, &a.Host, &a.Route, &a.Method,
		&a.DocMatchType, &a.EndpointSource, &ps, &a.ParamsSource, &ev, &alt, &a.IsPrimary); err != nil {
		return err
	}
	a.Params = []Param{}
	_ = json.Unmarshal([]byte(ps), &a.Params)
	if ev != "" && ev != "{}" {
		a.Evidence = json.RawMessage(ev)
	}
	if alt != "" && alt != "[]" {
		a.Alternatives = json.RawMessage(alt)
	}
	return nil
}

func (s *Store) queryAlignments(ctx context.Context, where string, args ...any) ([]Alignment, error) {
	scan := func(r rowScanner) (Alignment, error) {
		var a Alignment
		err := scanAlignment(r, &a)
		return a, err
	}
	return queryList(ctx, s, "read alignments", scan, `SELECT `+alignmentCols+` FROM alignments `+where+` ORDER BY function_id, call_index`, args...)
}

// Alignments returns the alignments of function fid in call order.
func (s *Store) Alignments(ctx context.Context, fid int64) ([]Alignment, error) {
	return s.queryAlignments(ctx, `WHERE function_id=?`, fid)
}

// PrimaryAlignments returns every function's primary alignment, by function id.
func (s *Store) PrimaryAlignments(ctx context.Context) ([]Alignment, error) {
	return s.queryAlignments(ctx, `WHERE is_primary=1`)
}

// SaveDedup replaces the whole dedup table with es (clusters are global: they are
// recomputed over every aligned function at once).
func (t *Tx) SaveDedup(ctx context.Context, es []DedupEntry) error {
	if _, err := t.exec(ctx, `DELETE FROM dedup`); err != nil {
		return fmt.Errorf("save dedup: %w", err)
	}
	for _, e := range es {
		if _, err := t.exec(ctx, `INSERT INTO dedup(function_id, cluster, kind, similarity, rank) VALUES(?,?,?,?,?)`,
			e.FunctionID, e.Cluster, e.Kind, e.Similarity, e.Rank); err != nil {
			return fmt.Errorf("save dedup of function %d: %w", e.FunctionID, err)
		}
	}
	return nil
}

// Dedup returns every dedup entry, by function id.
func (s *Store) Dedup(ctx context.Context) ([]DedupEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT function_id, cluster, kind, similarity, rank FROM dedup ORDER BY function_id`)
	if err != nil {
		return nil, fmt.Errorf("read dedup: %w", err)
	}
	defer rows.Close()
	var out []DedupEntry
	for rows.Next() {
		var e DedupEntry
		if err := rows.Scan(&e.FunctionID, &e.Cluster, &e.Kind, &e.Similarity, &e.Rank); err != nil {
			return nil, fmt.Errorf("read dedup: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// DedupOf returns the dedup entry of function fid, or ErrNotFound.
func (s *Store) DedupOf(ctx context.Context, fid int64) (*DedupEntry, error) {
	e := DedupEntry{FunctionID: fid}
	err := s.read.QueryRowContext(ctx, `SELECT cluster, kind, similarity, rank FROM dedup WHERE function_id=?`, fid).
		Scan(&e.Cluster, &e.Kind, &e.Similarity, &e.Rank)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("dedup of function %d: %w", fid, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("dedup of function %d: %w", fid, err)
	}
	return &e, nil
}

// SaveKept stores (or replaces) a kept function. Alignment.ID must be its primary
// alignment's row id.
func (t *Tx) SaveKept(ctx context.Context, k *KeptFunction) error {
	if k.KeptAt == "" {
		k.KeptAt = t.Now()
	}
	_, err := t.exec(ctx, `INSERT INTO kept(function_id, alignment_id, code, source, redactions, facts, input_hash, kept_at)
		VALUES(?,?,?,?,?,?,?,?) ON CONFLICT(function_id) DO UPDATE SET alignment_id=excluded.alignment_id, code=excluded.code,
		source=excluded.source, redactions=excluded.redactions, facts=excluded.facts, input_hash=excluded.input_hash,
		kept_at=excluded.kept_at`,
		k.FunctionID, k.Alignment.ID, k.Code, k.Source, rawOr(k.Redactions, "[]"), rawOr(k.Facts, "{}"), k.InputHash, k.KeptAt)
	if err != nil {
		return fmt.Errorf("save kept function %d: %w", k.FunctionID, err)
	}
	return nil
}

// RetainKept deletes the kept rows of every function not in keep.
func (t *Tx) RetainKept(ctx context.Context, keep []int64) error {
	if _, err := t.exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS kept_retain(id INTEGER PRIMARY KEY)`); err != nil {
		return fmt.Errorf("retain kept: %w", err)
	}
	if _, err := t.exec(ctx, `DELETE FROM kept_retain`); err != nil {
		return fmt.Errorf("retain kept: %w", err)
	}
	for len(keep) > 0 {
		n := min(len(keep), 500)
		args := make([]any, n)
		for i := range args {
			args[i] = keep[i]
		}
		if _, err := t.exec(ctx, `INSERT OR IGNORE INTO kept_retain(id) VALUES (?)`+strings.Repeat(",(?)", n-1), args...); err != nil {
			return fmt.Errorf("retain kept: %w", err)
		}
		keep = keep[n:]
	}
	if _, err := t.exec(ctx, `DELETE FROM kept WHERE function_id NOT IN (SELECT id FROM kept_retain)`); err != nil {
		return fmt.Errorf("retain kept: %w", err)
	}
	return nil
}

// KeptFunctions returns every kept function with its primary alignment and redacted
// code, by function id.
func (s *Store) KeptFunctions(ctx context.Context) ([]KeptFunction, error) {
	const cols = `a.id, a.function_id, a.call_index, COALESCE(a.api_id,0), COALESCE(a.endpoint_id,0), a.host, a.route,
		a.method, a.doc_match_type, a.endpoint_source, a.params, a.params_source, a.evidence, a.alternatives, a.is_primary`
	rows, err := s.read.QueryContext(ctx, `SELECT k.function_id, k.code, k.source, k.redactions, k.facts, k.input_hash, k.kept_at, `+cols+`
		FROM kept k JOIN alignments a ON a.id=k.alignment_id ORDER BY k.function_id`)
	if err != nil {
		return nil, fmt.Errorf("read kept functions: %w", err)
	}
	defer rows.Close()
	var out []KeptFunction
	for rows.Next() {
		var k KeptFunction
		var red, facts string
		var a Alignment
		var ps, ev, alt string
		if err := rows.Scan(&k.FunctionID, &k.Code, &k.Source, &red, &facts, &k.InputHash, &k.KeptAt,
			&a.ID, &a.FunctionID, &a.CallIndex, &a.APIID, &a.EndpointID, &a.Host, &a.Route, &a.Method,
			&a.DocMatchType, &a.EndpointSource, &ps, &a.ParamsSource, &ev, &alt, &a.IsPrimary); err != nil {
			return nil, fmt.Errorf("read kept functions: %w", err)
		}
		a.Params = []Param{}
		_ = json.Unmarshal([]byte(ps), &a.Params)
		if ev != "" && ev != "{}" {
			a.Evidence = json.RawMessage(ev)
		}
		if alt != "" && alt != "[]" {
			a.Alternatives = json.RawMessage(alt)
		}
		k.Alignment, k.Redactions, k.Facts = a, json.RawMessage(red), json.RawMessage(facts)
		out = append(out, k)
	}
	return out, rows.Err()
}

// alignNullID stores 0 as NULL for optional references.
func alignNullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
