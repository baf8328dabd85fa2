package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// learnedTrain is the learned retriever's train fixture: four APIs none of which
// the retrieve testdata's bench has.
var learnedTrain = filepath.Join("testdata", "learned", "train.json")

func TestRetrieveLearned(t *testing.T) {
	ctx := context.Background()
	bench, docs := retrieveTestdata("bench.json"), filepath.Join("testdata", "retrieve-docs")
	e, out, errb := newTestEnv(t)
	file := filepath.Join(t.TempDir(), "r.json")
	args := []string{"retrieve", "--bench", bench, "--docs", docs, "--no-run", "--retriever", "bm25,learned", "--train", learnedTrain, "--out", file}
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	for _, want := range []string{"learned: corpus from docs (5 endpoint documents, 2 hosts)", "| learned | overall | Endpoint@K |", "| bm25 | overall | Endpoint@K |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errb.String(), "learned: ranker 1 (trained in") || !strings.Contains(errb.String(), "10 samples of 4 APIs") ||
		strings.Contains(errb.String(), "trained on: their scores") {
		t.Errorf("stderr should say the ranker was trained, on what, and nothing of overlap:\n%s", errb)
	}
	var res struct {
		Reports []struct {
			Retriever string         `json:"retriever"`
			Settings  map[string]any `json:"settings"`
		} `json:"reports"`
	}
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &res); err != nil || len(res.Reports) != 2 || res.Reports[1].Retriever != "learned" || res.Reports[1].Settings["ranker"] == nil {
		t.Fatalf("--out: %v\n%s", err, b)
	}

	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"the same training finds the stored ranker", []string{"--train", learnedTrain}, "ranker 1 (the store's, trained before on the same inputs)"},
		{"without --train, the store's last ranker", nil, "learned: ranker 1 from the store"},
		{"--ranker names it", []string{"--ranker", "1"}, "learned: ranker 1 from the store"},
		{"training on the scored APIs is named", []string{"--train", bench}, "of the 5 samples scored are of APIs the ranker was trained on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errb.Reset()
			args := append([]string{"retrieve", "--bench", bench, "--docs", docs, "--no-run", "--retriever", "learned"}, tc.args...)
			if code := run(ctx, args, e); code != 0 {
				t.Fatalf("exit %d, stderr %s", code, errb)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb)
			}
		})
	}

	// Cross-validation by API on the train samples, beside BM25 on them.
	out.Reset()
	if code := run(ctx, []string{"retrieve", "--retriever", "bm25,learned", "--train", learnedTrain, "--cv", "2", "--no-run"}, e); code != 0 {
		t.Fatalf("--cv: exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "| learned (cv 2 by API) | overall | Endpoint@K | 10 |") || !strings.Contains(out.String(), "| bm25 | overall | Endpoint@K | 10 |") ||
		!strings.Contains(errb.String(), "cv fold 2: ") {
		t.Errorf("--cv output:\n%s\nstderr:\n%s", out, errb)
	}
}

func TestLearnedUsageErrors(t *testing.T) {
	bench := retrieveTestdata("bench.json")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"learned without a ranker", []string{"retrieve", "--bench", bench, "--no-run", "--retriever", "learned"}, "needs a trained ranker"},
		{"prompts: learned without a ranker", []string{"prompts", "--bench", bench, "--setting", "rag-learned", "--out", "p.jsonl"}, "holds none"},
		{"a ranker the store lacks", []string{"retrieve", "--bench", bench, "--no-run", "--retriever", "learned", "--ranker", "9"}, "does not exist"},
		{"--train without learned", []string{"retrieve", "--bench", bench, "--train", learnedTrain}, "add learned to --retriever"},
		{"--train-docs without --train", []string{"retrieve", "--bench", bench, "--retriever", "learned", "--train-docs", "x"}, "--train-docs needs --train"},
		{"--train and --ranker", []string{"retrieve", "--bench", bench, "--retriever", "learned", "--train", learnedTrain, "--ranker", "1"}, "contradict"},
		{"--cv without --train", []string{"retrieve", "--retriever", "learned", "--cv", "3"}, "--cv cross-validates"},
		{"--cv with --bench", []string{"retrieve", "--bench", bench, "--retriever", "learned", "--train", learnedTrain, "--cv", "3"}, "do not apply"},
		{"--cv of one fold", []string{"retrieve", "--retriever", "learned", "--train", learnedTrain, "--cv", "1"}, "at least 2 folds"},
		{"a training file with nothing", []string{"retrieve", "--bench", bench, "--no-run", "--retriever", "learned", "--train", "EMPTY"}, "holds no records"},
		{"prompts: --train of another setting", []string{"prompts", "--bench", bench, "--setting", "rag-bm25", "--train", learnedTrain, "--out", "p.jsonl"},
			"are for --setting rag-learned"},
		{"baseline: --train-docs of another setting", []string{"baseline", "bm25-nearest-train", "--bench", bench, "--setting", "intent", "--train", learnedTrain,
			"--train-docs", "x", "--out", "g.jsonl"}, "--train-docs and --ranker are for --setting rag-learned"},
		{"baseline: --train of a baseline that copies nothing", []string{"baseline", "null", "--bench", bench, "--train", learnedTrain, "--out", "g.jsonl"},
			"--train is the train source of bm25-nearest-train"},
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, errb := newTestEnv(t)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "EMPTY", empty)
			}
			if code := run(context.Background(), args, e); code != 2 {
				t.Fatalf("exit %d, want 2 (stderr %q)", code, errb)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", errb, tc.stderr)
			}
			if _, err := os.Stat(e.db); err == nil && tc.args[0] == "retrieve" && !slices.Contains(tc.args, "--train") {
				t.Errorf("a usage error created the store %s", e.db)
			}
		})
	}
}

func TestPromptsRAGLearned(t *testing.T) {
	ctx := context.Background()
	e, out, errb := newTestEnv(t)
	bench, docs := retrieveTestdata("bench.json"), filepath.Join("testdata", "retrieve-docs")
	file := filepath.Join(t.TempDir(), "p.jsonl")
	args := []string{"prompts", "--bench", bench, "--docs", docs, "--setting", "learned", "--train", learnedTrain, "--k", "2", "--out", file}
	if code := run(ctx, args, e); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	if !strings.Contains(out.String(), "rag-learned prompts") || !strings.Contains(errb.String(), "learned: ranker 1 (trained in") {
		t.Errorf("stdout %q\nstderr %q", out, errb)
	}
	b, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, l := range lines {
		var p struct {
			Setting string            `json:"setting"`
			Docs    []json.RawMessage `json:"docs"`
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.Setting != "rag-learned" || len(p.Docs) != 2 {
			t.Errorf("prompt %v: %s", err, l)
		}
	}
}
