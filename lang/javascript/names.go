package javascript

import (
	"path"
	"strings"
	"unicode"
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// jsGlobals are the names JavaScript programs use without defining or importing
// them: the language's built-ins, the browser's and Node's globals, and the
// globals of the test runners and frameworks that inject them.
var jsGlobals = wordSet(
	// ECMAScript
	"Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError " +
		"FinalizationRegistry Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array Intl " +
		"JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set " +
		"SharedArrayBuffer String Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array " +
		"Uint8ClampedArray WeakMap WeakRef WeakSet AggregateError decodeURI decodeURIComponent encodeURI " +
		"encodeURIComponent escape eval globalThis isFinite isNaN parseFloat parseInt undefined unescape " +
		"arguments this super " +
		// browser
		"window document navigator location history localStorage sessionStorage console alert confirm prompt " +
		"fetch Request Response Headers FormData URL URLSearchParams Blob File FileReader XMLHttpRequest " +
		"ActiveXObject WebSocket EventSource AbortController AbortSignal Event CustomEvent EventTarget " +
		"setTimeout clearTimeout setInterval clearInterval requestAnimationFrame cancelAnimationFrame " +
		"queueMicrotask structuredClone atob btoa crypto performance screen self top parent frames opener " +
		"HTMLElement Element Node NodeList MutationObserver IntersectionObserver ResizeObserver Image Audio " +
		"DOMParser TextEncoder TextDecoder ReadableStream WritableStream TransformStream caches indexedDB " +
		"Notification Worker ServiceWorker BroadcastChannel customElements getComputedStyle matchMedia " +
		"open close print scrollTo innerWidth innerHeight devicePixelRatio origin name status " +
		// Node
		"process Buffer global require module exports __dirname __filename setImmediate clearImmediate " +
		// test runners and frameworks
		"describe it test expect beforeEach afterEach beforeAll afterAll jest vi cy " +
		"$ jQuery React JSX Deno Bun chrome browser")

// nodeBuiltins are Node 20's built-in modules (require("module").builtinModules),
// reachable with or without the node: scheme; node:test, node:sea and
// node:sqlite only with it.
var nodeBuiltins = wordSet(
	"_http_agent _http_client _http_common _http_incoming _http_outgoing _http_server _stream_duplex " +
		"_stream_passthrough _stream_readable _stream_transform _stream_wrap _stream_writable _tls_common " +
		"_tls_wrap assert assert/strict async_hooks buffer child_process cluster console constants crypto " +
		"dgram diagnostics_channel dns dns/promises domain events fs fs/promises http http2 https inspector " +
		"inspector/promises module net os path path/posix path/win32 perf_hooks process punycode querystring " +
		"readline readline/promises repl stream stream/consumers stream/promises stream/web string_decoder " +
		"sys timers timers/promises tls trace_events tty url util util/types v8 vm wasi worker_threads zlib")

var nodeSchemeOnly = wordSet("test sea sqlite test/reporters")

// IsBuiltin reports whether Node 20 provides the module (a specifier such as
// "fs", "node:fs", "fs/promises" or a package name such as "https").
func IsBuiltin(spec string) bool {
	if rest, ok := strings.CutPrefix(spec, "node:"); ok {
		return nodeBuiltins[rest] || nodeSchemeOnly[rest] || nodeBuiltins[strings.SplitN(rest, "/", 2)[0]]
	}
	return nodeBuiltins[spec]
}

// packageName is the npm package a bare specifier names: lodash/fp → lodash,
// @scope/pkg/sub → @scope/pkg; node:fs/promises → node:fs.
func packageName(spec string) string {
	parts := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// aliasPrefixes are the path aliases bundlers and tsconfig paths commonly give
// the repository's source root.
var aliasPrefixes = []string{"@/", "~/", "#/", "@@/", "~~/", "src/", "@src/", "@app/", "app/", "lib/", "@lib/"}

// repoHas reports whether a bare specifier names one of the repository's own
// files: a path from the repository's root, its src/ or the file's directory
// (tsconfig baseUrl), or through a common alias (@/api/client → src/api/client).
func repoHas(file string, repoPaths []string, spec string) bool {
	if len(repoPaths) == 0 {
		return false
	}
	cands := []string{spec}
	for _, p := range aliasPrefixes {
		if rest, ok := strings.CutPrefix(spec, p); ok {
			cands = append(cands, rest)
		}
	}
	roots := []string{"", "src/", "app/", "lib/"}
	if d := path.Dir(file); d != "." && d != "" {
		roots = append(roots, d+"/")
	}
	for _, rp := range repoPaths {
		noExt := strings.TrimSuffix(rp, path.Ext(rp))
		for _, r := range roots {
			for _, c := range cands {
				want := r + c
				if noExt == want || noExt == want+"/index" || strings.HasPrefix(rp, want+"/") && c != spec {
					return true
				}
			}
		}
	}
	return false
}

// reserved are the words that cannot name a binding in JavaScript or TypeScript's
// strict mode.
var reserved = wordSet("break case catch class const continue debugger default delete do else enum export " +
	"extends false finally for function if import in instanceof new null return super switch this throw true " +
	"try typeof var void while with yield let static implements interface package private protected public await")

// IsIdentifier reports whether s may name a binding in JavaScript: a letter, $ or
// _ followed by letters, digits, $ or _, and not a reserved word.
func IsIdentifier(s string) bool {
	if s == "" || reserved[s] {
		return false
	}
	for i, r := range s {
		switch {
		case r == '$' || r == '_' || unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || r == '\u200c' || r == '\u200d' || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)):
		default:
			return false
		}
	}
	return true
}
