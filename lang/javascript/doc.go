// Package javascript extracts request-making functions from JavaScript and TypeScript
// source (JSX and TSX included) with tree-sitter: each function as a self-contained
// program (its imports and the module-level constants, instances and helpers it
// needs), its static facts (request call sites of fetch, axios, got, ky,
// superagent, jQuery, XMLHttpRequest, Node's http/https, undici, request and
// unirest, with resolved URLs, headers and parameters; imports; comments and JSDoc;
// status and error handling) and the quality score every language shares. It is
// pure: bytes in, functions out, no store.
package javascript
