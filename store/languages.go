package store

import (
	"context"
	"fmt"
)

// LanguageCount is how many functions or samples of one language a store holds.
type LanguageCount struct {
	Language   string `json:"language"`
	Functions  int64  `json:"functions"`  // extracted request functions
	Candidates int64  `json:"candidates"` // of which extract kept as candidates
	Kept       int64  `json:"kept"`       // of which decontam kept
	Samples    int64  `json:"samples"`    // samples (built and imported) of the language
}

// LanguageCounts counts the store's functions and samples by language: a
// function's from its facts, a sample's from its record; facts and records
// written before there was a second language are Python's.
func (s *Store) LanguageCounts(ctx context.Context) ([]LanguageCount, error) {
	rows, err := s.read.QueryContext(ctx, `
		SELECT lang, SUM(f), SUM(c), SUM(k), SUM(n) FROM (
			SELECT COALESCE(NULLIF(json_extract(fn.facts, '$.language'), ''), 'python') AS lang, 1 AS f,
				fn.status = 'candidate' AS c, EXISTS (SELECT 1 FROM kept k WHERE k.function_id = fn.id) AS k, 0 AS n
			FROM functions fn
			UNION ALL
			SELECT COALESCE(NULLIF(json_extract(sa.record, '$.language'), ''), 'python'), 0, 0, 0, 1 FROM samples sa
		) GROUP BY lang ORDER BY lang = 'python' DESC, lang`)
	if err != nil {
		return nil, fmt.Errorf("count by language: %w", err)
	}
	defer rows.Close()
	out := []LanguageCount{}
	for rows.Next() {
		var c LanguageCount
		if err := rows.Scan(&c.Language, &c.Functions, &c.Candidates, &c.Kept, &c.Samples); err != nil {
			return nil, fmt.Errorf("count by language: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count by language: %w", err)
	}
	return out, nil
}
