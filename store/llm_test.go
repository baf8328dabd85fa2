package store

import (
	"context"
	"fmt"
	"math"
	"testing"
)

func TestLLMChatCacheKeepsTheFirstAnswer(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	if _, ok, err := s.GetChat(ctx, "k1"); ok || err != nil {
		t.Fatalf("GetChat of an empty cache = ok %v, err %v; want a miss", ok, err)
	}
	tests := []struct {
		name, key, response, want string
	}{
		{"first put", "k1", `{"choices":[{"text":"a"}]}`, `{"choices":[{"text":"a"}]}`},
		{"second put of the same key changes nothing", "k1", `{"choices":[{"text":"b"}]}`, `{"choices":[{"text":"a"}]}`},
		{"another key", "k2", `{"choices":[]}`, `{"choices":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.PutChat(ctx, tc.key, "m", `{"v":1}`, tc.response); err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.GetChat(ctx, tc.key)
			if err != nil || !ok || got != tc.want {
				t.Fatalf("GetChat(%s) = %q, %v, %v; want %q", tc.key, got, ok, err, tc.want)
			}
		})
	}
	var model, request, created string
	if err := s.read.QueryRow(`SELECT model, request, created_at FROM llm_chats WHERE cache_key='k1'`).Scan(&model, &request, &created); err != nil {
		t.Fatal(err)
	}
	if model != "m" || request != `{"v":1}` || created != "2026-11-30T12:00:00Z" {
		t.Errorf("row = %q %q %q, want model, request and the store clock's time", model, request, created)
	}
}

func TestLLMEmbeddingCacheRoundTrips(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	vecs := map[string][]float32{
		"h1": {0.25, -1.5, float32(math.Pi), math.SmallestNonzeroFloat32},
		"h2": {1},
	}
	if err := s.PutEmbeddings(ctx, "embed-a", vecs); err != nil {
		t.Fatal(err)
	}
	// The same text under another model is another entry; a second put keeps the first.
	if err := s.PutEmbeddings(ctx, "embed-b", map[string][]float32{"h1": {9, 9}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutEmbeddings(ctx, "embed-a", map[string][]float32{"h1": {7}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		model  string
		hashes []string
		want   map[string][]float32
	}{
		{"both", "embed-a", []string{"h1", "h2"}, vecs},
		{"missing hashes are absent", "embed-a", []string{"h2", "nope"}, map[string][]float32{"h2": {1}}},
		{"per model", "embed-b", []string{"h1", "h2"}, map[string][]float32{"h1": {9, 9}}},
		{"none asked", "embed-a", nil, map[string][]float32{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.GetEmbeddings(ctx, tc.model, tc.hashes)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("GetEmbeddings = %v, want %v", got, tc.want)
			}
		})
	}
}

// A lookup of more hashes than one query binds is split into several.
func TestLLMEmbeddingLookupOfManyHashes(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	n := 2*embeddingChunk + 7
	vecs := map[string][]float32{}
	hashes := make([]string, n)
	for i := range n {
		hashes[i] = fmt.Sprintf("h%04d", i)
		vecs[hashes[i]] = []float32{float32(i)}
	}
	if err := s.PutEmbeddings(ctx, "m", vecs); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetEmbeddings(ctx, "m", hashes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n || got[hashes[n-1]][0] != float32(n-1) {
		t.Fatalf("got %d vectors (last %v), want %d", len(got), got[hashes[n-1]], n)
	}
}
