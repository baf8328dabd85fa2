package samples

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"sccg/store"
)

// The extractor's facts keep credential values as written; decontam stores a
// redacted copy. Samples must be built from that copy.
func TestKeptFromStoreUsesRedactedFactsAndCode(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fns := builtFixture()[:1]
	const secret = "c0ffee1234msh5ca1ab1e00beefp1dead00jsn00000000cafe"
	fns[0].facts.Docstring.Text = "uses key " + secret
	seedBuilt(t, s, fns)

	ks, err := s.KeptFunctions(ctx)
	if err != nil || len(ks) != 1 {
		t.Fatalf("kept = %v, %v", ks, err)
	}
	raw, _ := s.Function(ctx, ks[0].FunctionID)
	if !strings.Contains(string(raw.Facts), secret) {
		t.Fatal("fixture: the raw facts should hold the secret")
	}
	red := strings.ReplaceAll(string(raw.Facts), secret, "<REDACTED_RAPIDAPI_KEY>")
	ks[0].Facts = json.RawMessage(red)
	if err := s.Update(ctx, func(tx *store.Tx) error { return tx.SaveKept(ctx, &ks[0]) }); err != nil {
		t.Fatal(err)
	}

	kept, err := KeptFromStore(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 1 {
		t.Fatalf("%d kept, want 1", len(kept))
	}
	if strings.Contains(string(kept[0].Function.Facts), secret) {
		t.Fatal("KeptFromStore returned the unredacted facts")
	}
	if kept[0].Function.Code != ks[0].Code || kept[0].Function.Source != ks[0].Source {
		t.Fatal("KeptFromStore returned the unredacted code or source")
	}
}
