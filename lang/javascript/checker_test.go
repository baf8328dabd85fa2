package javascript

import (
	"context"
	"testing"

	"sccg/lang"
)

func TestChecker(t *testing.T) {
	c, err := Frontend{}.NewChecker(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Tool() != "esbuild" || c.Version() != esbuildModuleVersion {
		t.Errorf("checker is %s %s, want esbuild %s", c.Tool(), c.Version(), esbuildModuleVersion)
	}
	for _, tc := range []struct {
		name string
		d    lang.Dialect
		code string
		ok   bool
		line int
	}{
		{"module with top-level await", lang.DialectJS, "import axios from 'axios';\nconst r = await axios.get('https://x.example.com');\n", true, 0},
		{"jsx in js", lang.DialectJS, "export function A() { return <div>{1}</div>; }\n", true, 0},
		{"types in js", lang.DialectJS, "function f(a: number) {}\n", false, 1},
		{"types in ts", lang.DialectTS, "function f(a: number): string { return `${a}`; }\n", true, 0},
		{"tsx", lang.DialectTSX, "const A = (p: {n: number}) => <b>{p.n}</b>;\n", true, 0},
		{"unclosed", lang.DialectJS, "function f() {\n  fetch('x'\n}\n", false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Check(context.Background(), tc.d, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK != tc.ok || (!tc.ok && r.Line != tc.line) || (!r.OK && r.Error == "") {
				t.Errorf("Check = %+v, want ok=%v line=%d", r, tc.ok, tc.line)
			}
		})
	}
	if _, err := (Frontend{}).NewChecker(context.Background(), "node"); err == nil {
		t.Error("a checker other than esbuild was accepted")
	}
}
