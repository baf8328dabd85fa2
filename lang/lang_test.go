package lang

import (
	"reflect"
	"testing"
)

func TestForPath(t *testing.T) {
	for _, tc := range []struct {
		path    string
		name    Name
		dialect Dialect
		ok      bool
	}{
		{"app/client.py", Python, DialectPython, true},
		{"src/api.js", JavaScript, DialectJS, true},
		{"src/api.MJS", JavaScript, DialectJS, true},
		{"server/index.cjs", JavaScript, DialectJS, true},
		{"web/App.jsx", JavaScript, DialectJS, true},
		{"svc/weather.ts", TypeScript, DialectTS, true},
		{"svc/weather.mts", TypeScript, DialectTS, true},
		{"web/Forecast.tsx", TypeScript, DialectTSX, true},
		{`win\path\Forecast.tsx`, TypeScript, DialectTSX, true},
		{"types/index.d.ts", "", "", false},
		{"README.md", "", "", false},
		{"Makefile", "", "", false},
	} {
		n, d, ok := ForPath(tc.path)
		if n != tc.name || d != tc.dialect || ok != tc.ok {
			t.Errorf("ForPath(%q) = %q, %q, %v; want %q, %q, %v", tc.path, n, d, ok, tc.name, tc.dialect, tc.ok)
		}
	}
}

func TestExtensionsAndFamily(t *testing.T) {
	if got, want := Extensions(TypeScript), []string{".cts", ".mts", ".ts", ".tsx"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Extensions(typescript) = %v, want %v", got, want)
	}
	if TypeScript.Family() != JavaScript || Python.Family() != Python || JavaScript.Family() != JavaScript {
		t.Error("TypeScript is read by the JavaScript frontend; the others by their own")
	}
	if Of("") != Python || Of("JavaScript") != JavaScript {
		t.Errorf(`Of("") = %q, Of("JavaScript") = %q`, Of(""), Of("JavaScript"))
	}
}

// TestDecodeFactsOfOlderStores: facts stored before there was a second language
// carry no language and hold the syntax check under "python".
func TestDecodeFactsOfOlderStores(t *testing.T) {
	f, err := DecodeFacts([]byte(`{"calls":[],"python":{"version":"3.11.7","ok":false,"error":"SyntaxError: x","line":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &SyntaxCheck{Tool: "Python", Version: "3.11.7", OK: false, Error: "SyntaxError: x", Line: 3}
	if f.Language != Python || !reflect.DeepEqual(f.Check, want) {
		t.Errorf("decoded language %q, check %+v; want python, %+v", f.Language, f.Check, want)
	}
	f, err = DecodeFacts([]byte(`{"language":"typescript","dialect":"tsx","check":{"tool":"esbuild","version":"0.28.2","ok":true}}`))
	if err != nil || f.Language != TypeScript || f.Dialect != DialectTSX || f.Check.Tool != "esbuild" {
		t.Errorf("decoded %+v, %v; want typescript/tsx checked by esbuild", f, err)
	}
	if _, err := DecodeFacts([]byte(`{"calls":`)); err == nil {
		t.Error("truncated facts decoded without an error")
	}
}

func TestDecode(t *testing.T) {
	if _, _, err := Decode([]byte("a\x00b")); err != ErrBinary {
		t.Errorf("NUL byte: err %v, want ErrBinary", err)
	}
	b, enc, err := Decode([]byte("\ufeffx = 1"))
	if err != nil || enc != "utf-8" || string(b) != "x = 1" {
		t.Errorf("BOM: %q %s %v", b, enc, err)
	}
	b, enc, _ = Decode([]byte{'c', 0xe9})
	if enc != "latin-1" || string(b) != "cé" {
		t.Errorf("latin-1: %q %s", b, enc)
	}
}
