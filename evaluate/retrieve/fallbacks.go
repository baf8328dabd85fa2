package retrieve

import (
	"encoding/json"
	"maps"
	"strings"
	"sync"
)

// Fallbacks count the LLM answers a retriever could not use, by what it did
// instead; none is dropped silently.
type Fallbacks struct {
	mu sync.Mutex
	n  map[string]int
}

func (f *Fallbacks) add(what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int{}
	}
	f.n[what]++
}

// Counts are the answers not used so far, by what was done instead.
func (f *Fallbacks) Counts() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.n)
}

// FallbackCounter is a retriever that counts the LLM answers it could not use.
type FallbackCounter interface {
	Counts() map[string]int
}

// The fallbacks the LLM-backed retrievers count.
const (
	FallbackHyDENoCode       = "hyde: no code in the answer, the intent searched"
	FallbackNoSubtasks       = "capir: no subtask in the decomposition, the intent alone retrieved"
	FallbackCAPIRNoCandidate = "capir: the rerank answer names no candidate, the fused order kept"
	FallbackRerankNoRanking  = "rerank: the answer names no candidate, the base order kept"
)

// jsonList reads an answer that is a JSON list of strings (some models answer a
// decomposition so); ok is false for anything else.
func jsonList(ans string) ([]string, bool) {
	t := strings.TrimSpace(ans)
	if !strings.HasPrefix(t, "[") {
		return nil, false
	}
	var list []string
	if json.Unmarshal([]byte(t), &list) != nil {
		return nil, false
	}
	return list, true
}
