package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
)

// Cache keeps answers so that a rerun sends no request. Chat answers are kept by
// ChatRequest.Key, embedding vectors by model and TextHash. It speaks plain types
// so that the store can implement it without importing this package; *store.Store
// does. Implementations must be safe for concurrent use; a second Put of a key
// that is present keeps the first answer.
type Cache interface {
	// GetChat returns the answer (the JSON a ChatResponse marshals to) kept for key.
	GetChat(ctx context.Context, key string) (response string, ok bool, err error)
	// PutChat keeps an answer with its model and the canonical request it answers.
	PutChat(ctx context.Context, key, model, request, response string) error
	// GetEmbeddings returns the vectors kept for the given text hashes of model;
	// hashes with none are absent from the map.
	GetEmbeddings(ctx context.Context, model string, textHashes []string) (map[string][]float32, error)
	// PutEmbeddings keeps vectors of model by text hash.
	PutEmbeddings(ctx context.Context, model string, vectors map[string][]float32) error
}

// PromptHash identifies a prompt independently of the model and decoding: the hex
// SHA-256 of the canonical JSON of its messages. Prompt files record it as
// prompt_hash; the cache key (ChatRequest.Key) adds the model and parameters.
func PromptHash(messages []Message) string {
	if messages == nil {
		messages = []Message{}
	}
	return hashHex(canonicalJSON(struct {
		V        int       `json:"v"`
		Messages []Message `json:"messages"`
	}{keyVersion, messages}))
}

// TextHash is the key of one text's embedding under a model: the hex SHA-256 of
// the text.
func TextHash(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])
}

// canonicalJSON marshals v without HTML escaping or a trailing newline. Struct
// fields keep their declared order and map keys are sorted, so equal values give
// equal bytes.
func canonicalJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("llm: canonical JSON: " + err.Error()) // only plain strings and numbers go in
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// MemoryCache is a Cache in memory, for a run without a store and for tests.
type MemoryCache struct {
	mu    sync.Mutex
	chats map[string]string
	vecs  map[string][]float32 // model + "\x00" + text hash
}

// NewMemoryCache returns an empty MemoryCache.
func NewMemoryCache() *MemoryCache {
	return &MemoryCache{chats: map[string]string{}, vecs: map[string][]float32{}}
}

// GetChat implements Cache.
func (m *MemoryCache) GetChat(_ context.Context, key string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.chats[key]
	return r, ok, nil
}

// PutChat implements Cache.
func (m *MemoryCache) PutChat(_ context.Context, key, _, _, response string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.chats[key]; !ok {
		m.chats[key] = response
	}
	return nil
}

// GetEmbeddings implements Cache.
func (m *MemoryCache) GetEmbeddings(_ context.Context, model string, hashes []string) (map[string][]float32, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string][]float32{}
	for _, h := range hashes {
		if v, ok := m.vecs[model+"\x00"+h]; ok {
			out[h] = append([]float32(nil), v...)
		}
	}
	return out, nil
}

// PutEmbeddings implements Cache.
func (m *MemoryCache) PutEmbeddings(_ context.Context, model string, vectors map[string][]float32) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for h, v := range vectors {
		k := model + "\x00" + h
		if _, ok := m.vecs[k]; !ok {
			m.vecs[k] = append([]float32(nil), v...)
		}
	}
	return nil
}
