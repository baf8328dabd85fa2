package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The methods in this file are the store side of the LLM client's cache: *Store
// implements llm.Cache (with plain types, so neither package imports the other).
// A second put of a key that is present keeps the first answer, so running a step
// twice changes nothing.

// GetChat returns the cached chat answer (JSON) for an LLM request key.
func (s *Store) GetChat(ctx context.Context, key string) (string, bool, error) {
	var resp string
	err := s.read.QueryRowContext(ctx, `SELECT response FROM llm_chats WHERE cache_key = ?`, key).Scan(&resp)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read cached llm answer %s: %w", key, err)
	}
	return resp, true, nil
}

// PutChat caches a chat answer (JSON) under its request key, with the model and the
// canonical request it answers.
func (s *Store) PutChat(ctx context.Context, key, model, request, response string) error {
	err := s.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO llm_chats(cache_key, model, request, response, created_at) VALUES(?,?,?,?,?)
			ON CONFLICT(cache_key) DO NOTHING`, key, model, request, response, tx.Now())
		return err
	})
	if err != nil {
		return fmt.Errorf("cache llm answer %s: %w", key, err)
	}
	return nil
}

// embeddingChunk bounds the text hashes one lookup query binds (SQLite's default
// limit on variables is 32766; staying far below it keeps queries small).
const embeddingChunk = 500

// GetEmbeddings returns the cached vectors of model for the given text hashes;
// hashes with no vector are absent from the map.
func (s *Store) GetEmbeddings(ctx context.Context, model string, textHashes []string) (map[string][]float32, error) {
	out := make(map[string][]float32, len(textHashes))
	type row struct {
		hash string
		vec  []float32
	}
	scan := func(r rowScanner) (row, error) {
		var x row
		var dims int
		var blob []byte
		if err := r.Scan(&x.hash, &dims, &blob); err != nil {
			return x, err
		}
		v, err := decodeVector(blob, dims)
		if err != nil {
			return x, fmt.Errorf("vector of %s: %w", x.hash, err)
		}
		x.vec = v
		return x, nil
	}
	for len(textHashes) > 0 {
		n := min(embeddingChunk, len(textHashes))
		chunk := textHashes[:n]
		textHashes = textHashes[n:]
		args := make([]any, 0, n+1)
		args = append(args, model)
		for _, h := range chunk {
			args = append(args, h)
		}
		rows, err := queryList(ctx, s, "read cached embeddings", scan,
			`SELECT text_sha256, dims, vector FROM llm_embeddings WHERE model = ? AND text_sha256 IN (?`+strings.Repeat(",?", n-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.hash] = r.vec
		}
	}
	return out, nil
}

// PutEmbeddings caches vectors of model by text hash, in one transaction.
func (s *Store) PutEmbeddings(ctx context.Context, model string, vectors map[string][]float32) error {
	hashes := make([]string, 0, len(vectors))
	for h := range vectors {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes) // a fixed order: the same input writes the same way
	err := s.Update(ctx, func(tx *Tx) error {
		now := tx.Now()
		for _, h := range hashes {
			v := vectors[h]
			if _, err := tx.exec(ctx, `INSERT INTO llm_embeddings(model, text_sha256, dims, vector, created_at) VALUES(?,?,?,?,?)
				ON CONFLICT(model, text_sha256) DO NOTHING`, model, h, len(v), encodeVector(v), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cache %d embedding(s) of %s: %w", len(vectors), model, err)
	}
	return nil
}

// encodeVector packs a vector as little-endian float32s.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte, dims int) ([]float32, error) {
	if len(b) != 4*dims {
		return nil, fmt.Errorf("%d bytes for %d dimensions", len(b), dims)
	}
	v := make([]float32, dims)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
