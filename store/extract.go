package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ReasonNoLongerExtracted is the reject reason of a function a sample was built
// from that a later extraction of its file no longer finds.
const ReasonNoLongerExtracted = "no longer extracted from its file"

// SaveFunctions makes fns the functions extracted from file fileID: a function
// already saved under the same (qualname, start line) keeps its row id and is
// updated, the file's other functions are deleted. Saving the same file twice leaves
// the store as it was. A function that is no longer found is deleted (with its
// alignments), unless a sample was built from it: then it is kept, rejected with
// ReasonNoLongerExtracted. Each fn's ID and FileID are set.
func (t *Tx) SaveFunctions(ctx context.Context, fileID int64, fns []Function) error {
	keep := make([]any, 0, len(fns)+1)
	keep = append(keep, fileID)
	for i := range fns {
		f := &fns[i]
		f.FileID = fileID
		qc, _ := json.Marshal(f.QualityComponents)
		if f.QualityComponents == nil {
			qc = []byte("{}")
		}
		facts := string(f.Facts)
		if len(f.Facts) == 0 {
			facts = "{}"
		}
		_, err := t.exec(ctx, `INSERT INTO functions(file_id, name, qualname, class_name, start_line, end_line, is_async,
			source, code, code_hash, syntax_ok, status, reject_reason, quality, quality_components, facts)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(file_id, qualname, start_line) DO UPDATE SET name=excluded.name, class_name=excluded.class_name,
			end_line=excluded.end_line, is_async=excluded.is_async, source=excluded.source, code=excluded.code,
			code_hash=excluded.code_hash, syntax_ok=excluded.syntax_ok, status=excluded.status,
			reject_reason=excluded.reject_reason, quality=excluded.quality,
			quality_components=excluded.quality_components, facts=excluded.facts`,
			fileID, f.Name, f.QualName, f.ClassName, f.StartLine, f.EndLine, f.IsAsync,
			f.Source, f.Code, f.CodeHash, f.SyntaxOK, f.Status, f.RejectReason, f.Quality, string(qc), facts)
		if err != nil {
			return fmt.Errorf("save function %s of file %d: %w", f.QualName, fileID, err)
		}
		// An upsert that updates leaves last_insert_rowid stale, so look the id up.
		err = t.tx.QueryRowContext(ctx, `SELECT id FROM functions WHERE file_id=? AND qualname=? AND start_line=?`,
			fileID, f.QualName, f.StartLine).Scan(&f.ID)
		if err != nil {
			return fmt.Errorf("save function %s of file %d: %w", f.QualName, fileID, err)
		}
		keep = append(keep, f.ID)
	}
	// A function no longer found is deleted, unless a sample was built from it:
	// that one stays, rejected, so the sample's lineage still resolves.
	gone := `file_id=?`
	if len(fns) > 0 {
		gone += ` AND id NOT IN (?` + strings.Repeat(",?", len(fns)-1) + `)`
	}
	used := ` AND id IN (SELECT function_id FROM samples WHERE function_id IS NOT NULL)`
	if _, err := t.exec(ctx, `UPDATE functions SET status=?, reject_reason=? WHERE `+gone+used,
		append([]any{FunctionRejected, ReasonNoLongerExtracted}, keep...)...); err != nil {
		return fmt.Errorf("save functions of file %d: %w", fileID, err)
	}
	if _, err := t.exec(ctx, `DELETE FROM functions WHERE `+gone+strings.Replace(used, " IN ", " NOT IN ", 1), keep...); err != nil {
		return fmt.Errorf("save functions of file %d: %w", fileID, err)
	}
	return nil
}

const functionCols = `id, file_id, name, qualname, class_name, start_line, end_line, is_async, source, code,
	code_hash, syntax_ok, status, reject_reason, quality, quality_components, facts`

func scanFunction(sc interface{ Scan(...any) error }) (Function, error) {
	var f Function
	var qc, facts string
	err := sc.Scan(&f.ID, &f.FileID, &f.Name, &f.QualName, &f.ClassName, &f.StartLine, &f.EndLine, &f.IsAsync,
		&f.Source, &f.Code, &f.CodeHash, &f.SyntaxOK, &f.Status, &f.RejectReason, &f.Quality, &qc, &facts)
	if err != nil {
		return f, err
	}
	if qc != "" && qc != "{}" {
		_ = json.Unmarshal([]byte(qc), &f.QualityComponents)
	}
	if facts != "" && facts != "{}" {
		f.Facts = json.RawMessage(facts)
	}
	return f, nil
}

func (s *Store) queryFunctions(ctx context.Context, what, where string, args ...any) ([]Function, error) {
	return queryList(ctx, s, "read "+what, scanFunction, `SELECT `+functionCols+` FROM functions `+where+` ORDER BY id`, args...)
}

// Functions returns the extracted functions with the given status (candidate or
// rejected; "" for all), ordered by id.
func (s *Store) Functions(ctx context.Context, status string) ([]Function, error) {
	return s.queryFunctions(ctx, "functions", `WHERE (?='' OR status=?)`, status, status)
}

// FunctionsOfFile returns the functions extracted from one file, ordered by id.
func (s *Store) FunctionsOfFile(ctx context.Context, fileID int64) ([]Function, error) {
	return s.queryFunctions(ctx, fmt.Sprintf("functions of file %d", fileID), `WHERE file_id=?`, fileID)
}

// Function returns the function with the given id, or ErrNotFound.
func (s *Store) Function(ctx context.Context, id int64) (*Function, error) {
	row := s.read.QueryRowContext(ctx, `SELECT `+functionCols+` FROM functions WHERE id=?`, id)
	f, err := scanFunction(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("function %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("function %d: %w", id, err)
	}
	return &f, nil
}
