package store

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

func TestFunctionIntentsAndMaskedCode(t *testing.T) {
	ctx := context.Background()
	s, fids, _ := alignStoreTestEnv(t)
	f, g := fids[0], fids[1]
	err := s.Update(ctx, func(tx *Tx) error {
		return tx.SaveAlignments(ctx, f, []Alignment{{CallIndex: 0, Host: "wx.p.rapidapi.com", DocMatchType: "host_only", EndpointSource: "none", IsPrimary: true}})
	})
	if err != nil {
		t.Fatal(err)
	}
	as, err := s.Alignments(ctx, f)
	if err != nil || len(as) != 1 {
		t.Fatalf("alignments = %v, %v", as, err)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		if err := tx.SaveKept(ctx, &KeptFunction{FunctionID: f, Alignment: as[0], Code: "c", Source: "c", InputHash: "k"}); err != nil {
			return err
		}
		if err := tx.ReplaceFunctionIntents(ctx, f, []Intent{
			{Attempt: 1, Kind: "intent_humanlike", Path: "llm", Prompt: `[{"role":"user"}]`, Response: "leaky", Text: "leaky", Decision: IntentRetry},
			{Attempt: 2, Kind: "intent_humanlike", Path: "llm_retry", Text: "clean", Passed: true, Decision: IntentAccepted, InputHash: "h"},
			{Attempt: 3, Role: RolePaired, Kind: "intent_redacted", Path: "offline", Text: "paired", Passed: true, Decision: IntentAccepted},
		}); err != nil {
			return err
		}
		// g is not kept: its intents are not counted as a path
		if err := tx.ReplaceFunctionIntents(ctx, g, []Intent{{Attempt: 1, Kind: "intent_redacted", Path: "offline", Text: "x", Decision: IntentAccepted}}); err != nil {
			return err
		}
		return tx.SaveMasked(ctx, &MaskedCode{FunctionID: f, Code: "masked", Placeholders: json.RawMessage(`[{"token":"<HOST>"}]`), InputHash: "h"})
	})
	if err != nil {
		t.Fatal(err)
	}
	ins, err := s.FunctionIntents(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 3 || ins[0].Role != RoleComment || ins[0].Prompt != `[{"role":"user"}]` || ins[1].Decision != IntentAccepted || ins[2].Role != RolePaired || ins[0].FunctionID != f {
		b, _ := json.Marshal(ins)
		t.Errorf("FunctionIntents = %s", b)
	}
	// replacing drops the old attempts
	if err := s.Update(ctx, func(tx *Tx) error {
		return tx.ReplaceFunctionIntents(ctx, f, []Intent{ins[1], ins[2]})
	}); err != nil {
		t.Fatal(err)
	}
	all, err := s.IntentsByFunction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all[f]) != 2 || len(all[g]) != 1 || all[f][0].Text != "clean" {
		t.Errorf("IntentsByFunction = %+v", all)
	}
	paths, err := s.IntentPaths(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || paths["comment/llm_retry"] != 1 || paths["paired/offline"] != 1 {
		t.Errorf("IntentPaths = %v, want comment/llm_retry 1 and paired/offline 1", paths)
	}
	m, err := s.MaskedCode(ctx, f)
	if err != nil || m.Code != "masked" || string(m.Placeholders) != `[{"token":"<HOST>"}]` || m.MaskedAt == "" {
		t.Errorf("MaskedCode = %+v, %v", m, err)
	}
	if _, err := s.MaskedCode(ctx, g); !errors.Is(err, ErrNotFound) {
		t.Errorf("MaskedCode of an unmasked function: err = %v, want ErrNotFound", err)
	}
}

// A store from before migration 0009 keeps its intents: a built sample's move to
// its function, an imported sample's stay on the sample.
func TestMigrateIntentsToFunctions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.migrate(ctx, 8); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO repositories(id, full_name, source, fetched_at) VALUES(1, 'a/b', 'local', 't')`,
		`INSERT INTO files(id, repo_id, path, found_at) VALUES(1, 1, 'x.py', 't')`,
		`INSERT INTO functions(id, file_id, name, qualname, start_line, end_line, source, code, code_hash, status) VALUES(7, 1, 'f', 'f', 1, 2, 's', 'c', 'h', 'candidate')`,
		`INSERT INTO samples(id, sample_id, function_id, origin, created_at) VALUES(1, 'SCG-000001', 7, 'built', 't')`,
		`INSERT INTO samples(id, sample_id, origin, created_at) VALUES(2, 'SCG-000002', 'imported', 't')`,
		`INSERT INTO intents(sample_id, attempt, kind, text, passed, created_at) VALUES(1, 1, 'intent_redacted', 'built one', 1, 't')`,
		`INSERT INTO intents(sample_id, attempt, kind, text, passed, created_at) VALUES(2, 1, 'intent_redacted', 'imported one', 0, 't')`,
	} {
		if _, err := old.write.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	built, err := s.FunctionIntents(ctx, 7)
	if err != nil || len(built) != 1 || built[0].Text != "built one" || built[0].Decision != IntentAccepted || built[0].Role != RoleComment {
		t.Errorf("built sample's intents = %+v, %v", built, err)
	}
	imported, err := s.Intents(ctx, 2)
	if err != nil || len(imported) != 1 || imported[0].Text != "imported one" || imported[0].Decision != "" {
		t.Errorf("imported sample's intents = %+v, %v", imported, err)
	}
}
