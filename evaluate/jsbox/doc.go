// Package jsbox runs untrusted JavaScript and TypeScript in a sandbox with no
// ambient authority and returns what it tried to send, in the Python sandbox's
// sandbox.Result: esbuild turns TypeScript, JSX and ES modules into a CommonJS
// script, a fresh goja runtime per completion runs it beside a harness of
// recorders for the HTTP clients and stubs for everything else, and worker
// processes (the program itself re-executed, see WorkerArg) with memory and CPU
// limits keep a completion that exhausts them from taking more than itself.
package jsbox
