package frontends

import (
	"testing"

	"sccg/lang"
	"sccg/release"
)

func TestForPathAndRecord(t *testing.T) {
	f, n, d, ok := ForPath("bots/weather.py")
	if !ok || n != lang.Python || d != lang.DialectPython || f.Language() != lang.Python {
		t.Fatalf("ForPath(.py) = %v %q %q %v", f, n, d, ok)
	}
	if _, _, _, ok := ForPath("notes.txt"); ok {
		t.Error("a text file has a frontend")
	}
	r := &release.Record{SampleID: "s1", Code: release.Code{CompleteFunction: "import requests\n\n# c\ndef f():\n    return requests.get('https://x.example.com')\n"}}
	if got := EffectiveLOC(r); got != 3 {
		t.Errorf("EffectiveLOC of a record without a language (Python) = %d, want 3", got)
	}
	r.Language = "cobol"
	if _, _, err := ForRecord(r); err == nil {
		t.Error("a record in a language without a frontend has one")
	}
	if got := EffectiveLOC(r); got != 4 {
		t.Errorf("EffectiveLOC without a frontend counts non-blank lines: %d, want 4", got)
	}
	for _, p := range []string{"web/app.js", "web/App.jsx", "srv/api.ts", "web/App.tsx", "lib/x.mjs"} {
		f, n, _, ok := ForPath(p)
		if !ok || f.Language() != lang.JavaScript || n.Family() != lang.JavaScript {
			t.Errorf("ForPath(%s) = %v %q %v, want JavaScript's frontend", p, f, n, ok)
		}
	}
	if d := DialectOf(lang.TypeScript, "web/App.tsx"); d != lang.DialectTSX {
		t.Errorf("DialectOf(typescript, .tsx) = %q", d)
	}
	if d := DialectOf(lang.TypeScript, ""); d != lang.DialectTS {
		t.Errorf("DialectOf(typescript, no path) = %q", d)
	}
}
