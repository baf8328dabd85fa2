package jsbox

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"

	"sccg/lang"
)

// dialectOf reads a job's dialect: lang.Dialect's names ("js", "ts", "tsx"), or a
// release's language field ("javascript", "typescript"); anything else is
// JavaScript, whose loader also reads JSX.
func dialectOf(s string) lang.Dialect {
	switch d := lang.Dialect(strings.ToLower(strings.TrimSpace(s))); d {
	case lang.DialectTS, lang.DialectTSX:
		return d
	}
	if lang.Of(s) == lang.TypeScript {
		return lang.DialectTS
	}
	return lang.DialectJS
}

// loaders are esbuild's loaders for a dialect, tried in order: TypeScript is read
// as TS and, when TS alone does not parse, as TSX (a .ts sample's generation may
// hold JSX); TSX as TSX; JavaScript as JSX, which plain JavaScript also is.
func loaders(d lang.Dialect) []api.Loader {
	switch d {
	case lang.DialectTS:
		return []api.Loader{api.LoaderTS, api.LoaderTSX}
	case lang.DialectTSX:
		return []api.Loader{api.LoaderTSX}
	}
	return []api.Loader{api.LoaderJSX}
}

// transform turns code into a CommonJS script goja runs: TypeScript types and JSX
// compiled away, ES modules as require/exports, syntax newer than ES2017 lowered.
// syntaxErr is esbuild's verdict on code that does not parse; unsupported names
// valid code the conversion cannot take (top-level await: a CommonJS module has
// none).
func transform(d lang.Dialect, code string) (js, syntaxErr, unsupported string) {
	js, syntaxErr, unsupported = transformOnce(d, code)
	if unsupported == "top-level await" {
		// Snippets as RapidAPI writes them await at the top of a module: run the
		// module's statements in an async function instead.
		if main, ok := asyncMain(code); ok {
			if js2, serr, uns := transformOnce(d, main); serr == "" && uns == "" {
				return js2, "", ""
			}
		}
	}
	return js, syntaxErr, unsupported
}

// mainName is the async function asyncMain puts a module's statements in; the
// module keeps its promise as module[mainPromise].
const (
	mainName    = "__sccg_main__"
	mainPromise = "__sccg_main"
)

// asyncMain rewrites a module that awaits at its top level: its imports stay at
// the top, every other statement goes into an async function the module calls
// (exports lose their keyword: the lookup finds the names all the same). false
// when there is nothing to rewrite.
func asyncMain(code string) (string, bool) {
	lines := strings.Split(code, "\n")
	var head, body []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "import{") || strings.HasPrefix(t, "import\"") || strings.HasPrefix(t, "import'") {
			// an import runs to its module specifier
			for ; i < len(lines); i++ {
				head = append(head, lines[i])
				if endsImport(lines[i]) {
					break
				}
			}
			continue
		}
		body = append(body, unexport(l))
	}
	if len(body) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, l := range head {
		b.WriteString(l + "\n")
	}
	b.WriteString("async function " + mainName + "() {\n" + lookupParam + "(function (n) { return eval(n); });\n")
	for _, l := range body {
		b.WriteString(l + "\n")
	}
	b.WriteString("}\nmodule." + mainPromise + " = " + mainName + "();\n")
	return b.String(), true
}

func endsImport(l string) bool {
	t := strings.TrimSpace(l)
	return strings.Contains(t, "from '") || strings.Contains(t, "from \"") || strings.Contains(t, "from`") ||
		strings.HasPrefix(t, "import '") || strings.HasPrefix(t, "import \"") || strings.HasSuffix(t, ";")
}

// unexport drops the export keyword of a statement at the start of a line.
func unexport(l string) string {
	t := strings.TrimLeft(l, " \t")
	switch {
	case strings.HasPrefix(t, "export default function"), strings.HasPrefix(t, "export default async function"),
		strings.HasPrefix(t, "export default class"):
		return strings.Replace(l, "export default ", "", 1)
	case strings.HasPrefix(t, "export default "):
		return strings.Replace(l, "export default ", "module.exports.default = ", 1)
	case strings.HasPrefix(t, "export {") || strings.HasPrefix(t, "export *"):
		return ""
	case strings.HasPrefix(t, "export "):
		return strings.Replace(l, "export ", "", 1)
	}
	return l
}

// importMeta is what import.meta holds in the sandbox: an empty environment and
// the module's URL.
var importMeta = map[string]string{"import.meta.env": "{}", "import.meta.url": `"file:///main.js"`}

// transformOnce is one esbuild transform (see transform).
func transformOnce(d lang.Dialect, code string) (js, syntaxErr, unsupported string) {
	var first []api.Message
	// Defines cost esbuild a table of its known globals built afresh for each
	// transform (a third of a small module's transform): only code that can name
	// import.meta gets them (esbuild allows no escape in "meta").
	var define map[string]string
	if strings.Contains(code, "meta") {
		define = importMeta
	}
	for _, l := range loaders(d) {
		for _, target := range []api.Target{api.ES2017, api.ESNext} {
			r := api.Transform(code, api.TransformOptions{
				Loader:     l,
				Format:     api.FormatCommonJS,
				Target:     target,
				Sourcefile: "main",
				LogLevel:   api.LogLevelSilent,
				// import() becomes a require: the engine has no module loader
				Supported: map[string]bool{"dynamic-import": false},
				// a bundler's environment (Vite's import.meta.env.VITE_…) is as
				// empty as process.env; CommonJS has no import.meta of its own
				Define: define,
			})
			if len(r.Errors) == 0 {
				return string(r.Code), "", ""
			}
			if strings.Contains(r.Errors[0].Text, "Top-level await") {
				return "", "", "top-level await"
			}
			if first == nil {
				first = r.Errors
			}
			// A feature esbuild cannot lower parses all the same: try it unlowered.
			if !strings.Contains(r.Errors[0].Text, "configured target environment") {
				break
			}
		}
	}
	m := first[0]
	if m.Location != nil {
		return "", fmt.Sprintf("SyntaxError: %s (line %d)", m.Text, m.Location.Line), ""
	}
	return "", "SyntaxError: " + m.Text, ""
}

// The wrapper makes the script a CommonJS module function. Its first statement
// hands the harness a lookup of the module's own bindings (a direct eval in a
// closure over the module scope), so a function is found by name whether it is
// declared, assigned to a const, or the module stopped early; it sits on the first
// line so that line numbers stay the script's.
const (
	wrapHead   = "(function (exports, require, module, __filename, __dirname, " + lookupParam + ") {"
	wrapLookup = lookupParam + "(function (n) { return eval(n); });"
	wrapTail   = "\n})"
	// lookupParam is the wrapper's parameter that takes the lookup.
	lookupParam = "__sccg_lookup__"
)

// wrap makes js a module function expression; a "use strict" directive stays the
// first statement of its body.
func wrap(js string) string {
	var b strings.Builder
	b.Grow(len(wrapHead) + len(wrapLookup) + len(js) + len(wrapTail) + 16)
	b.WriteString(wrapHead)
	if t := strings.TrimLeft(js, " \t\r\n"); strings.HasPrefix(t, `"use strict"`) || strings.HasPrefix(t, `'use strict'`) {
		b.WriteString(`"use strict";`)
	}
	b.WriteString(wrapLookup)
	b.WriteString(js)
	b.WriteString(wrapTail)
	return b.String()
}

// parseModule parses the wrapped script and returns the program and the module
// function's body.
func parseModule(wrapped string) (*ast.Program, []ast.Statement, error) {
	prg, err := parser.ParseFile(nil, "main.js", wrapped, 0)
	if err != nil {
		return nil, nil, err
	}
	if len(prg.Body) == 1 {
		if es, ok := prg.Body[0].(*ast.ExpressionStatement); ok {
			if fl, ok := es.Expression.(*ast.FunctionLiteral); ok && fl.Body != nil {
				return prg, fl.Body.List, nil
			}
		}
	}
	return nil, nil, fmt.Errorf("wrapped module has an unexpected shape")
}
