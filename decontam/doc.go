// Package decontam keeps only real, distinct, credential-free code: it rejects
// templates and generated wrappers, caps samples per repository and per API, and
// redacts credentials.
//
// Decide judges every aligned candidate function:
//
//   - template signals, all recorded: tool-learning markers (toolbench_rapidapi_key),
//     ToolBench / ToolEyes / ToolDial names in code, repository, description, topics
//     or path, generator banners in the file head or comments, templated names
//     (var01, param02, result03), fixed placeholder comments, repositories whose
//     functions are near-identical apart from host and route (wrapper factories: all
//     their functions go), a configurable repository blocklist, and — weak, counted
//     only in pairs — key-like parameters with a literal default;
//   - duplicates that are not their cluster's representative (align's dedup);
//   - the per-repository (5) and per-API (20) caps, best quality first, ties broken
//     by the earliest repository and the lowest function id.
//
// Run stores a decision per rejection reason (stage "decontam", subject_kind
// "function"), redacts the kept functions' code, source and facts with typed
// placeholders (package secrets) and writes them to the kept table, which the
// sample builder reads through store.KeptFunctions. Redactions of unchanged inputs
// are reused, so runs resume and repeat without change.
//
// AuditRelease scans an export in the published format and fails closed on any
// credential-like literal, e-mail address or absolute user path.
package decontam
