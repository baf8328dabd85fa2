// Package decontam keeps only real, distinct, credential-free code: it rejects
// templates and generated wrappers, caps samples per repository, API and endpoint,
// and redacts credentials.
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
//   - callers (caller_of): a function that makes no request itself when every
//     aligned request it makes passes through a same-file function that can stand
//     for it (an aligned candidate, not a template, whose own requests align with
//     the same endpoint); the innermost such callee is named. A caller a callee
//     cannot stand for stays (a generic helper that is not aligned, or that only
//     gets its endpoint from the caller's arguments), and its kept decision says
//     which callee could not and why;
//   - duplicates that do not stand for their cluster: its members are taken in
//     align's rank (direct request function, own-body quality, repository, path,
//     qualname, line), the first that is neither template nor caller stands;
//   - the caps, over the clusters in rank order (ApplyCaps): 5 samples per
//     repository (repo_cap); an API's budget (api_cap) of 20 samples, or
//     ⌈√(20 × its documented endpoints)⌉ for an API documenting more than 20
//     (100 for 500 endpoints), so a large API keeps its variety and a small one is
//     capped as the paper did; 5 samples per endpoint once its API holds 20
//     (endpoint_cap). While an API has endpoints with no sample yet and clusters
//     still to come, a further sample of an endpoint it already holds waits if
//     taking it would leave no room for them; waiting clusters fill what is left
//     at the end. When the caps pass a cluster's first member over, the next
//     member that fits (the same code in another repository) is promoted, and a
//     cluster none of whose members fits is rejected whole (its first member with
//     the cap, the others cluster_capped).
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
