package javascript

import (
	"context"
	"encoding/json"
	"testing"

	"sccg/lang"
)

// TestFrontendFactsRoundTrip extracts through the Frontend (the dialect from the
// path) and reads the facts back as the store's readers do.
func TestFrontendFactsRoundTrip(t *testing.T) {
	src := "import axios from 'axios';\nexport class Api {\n  load(id: number): void {\n    setTimeout(() => axios.get(`https://v.example.com/items/${id}`), 5);\n  }\n}\n"
	res, err := Frontend{}.Extract(context.Background(), "src/api.ts", []byte(src), lang.ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Language != lang.TypeScript || len(res.Functions) != 1 {
		t.Fatalf("result %+v", res)
	}
	b, err := json.Marshal(res.Functions[0].Facts)
	if err != nil {
		t.Fatal(err)
	}
	f, err := lang.DecodeFacts(b)
	if err != nil {
		t.Fatal(err)
	}
	if f.Language != lang.TypeScript || f.Dialect != lang.DialectTS || len(f.Calls) != 1 || f.Calls[0].Callback != "setTimeout" ||
		f.Calls[0].Path != "/items/{id}" || res.Functions[0].QualName != "Api.load" {
		t.Errorf("facts read back: %+v", f)
	}
	if n := (Frontend{}).EffectiveLOC(src); n != 6 {
		t.Errorf("EffectiveLOC = %d, want 6", n)
	}
	if _, err := (Frontend{}).Extract(context.Background(), "web/app.js", []byte("const x: number = 1;\nfunction f() { fetch('https://w.example.com'); }\n"), lang.ExtractOptions{}); err != nil {
		t.Errorf("a .js file with a type error: %v", err)
	}
}
