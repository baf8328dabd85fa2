// Package python extracts request-making functions from Python source with
// tree-sitter: each function as a self-contained program (its imports and the
// module-level context it needs), its static facts (request call sites with resolved
// URLs, headers, parameters, imports, comments, status and error handling) and a
// quality score. It is pure: bytes in, functions out, no store.
package python
