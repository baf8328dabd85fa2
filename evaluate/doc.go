// Package evaluate scores generated code: it runs each completion in a sandboxed
// virtual environment that records the HTTP requests it tries to send, computes the
// benchmark metrics, and renders summaries and tables.
//
// Per completion (Result, one line of results.jsonl):
//
//   - Syntax: the code compiles (CPython, in the sandbox).
//   - Dep: every import is a standard-library module or a known distribution
//     (stdlib_modules.txt, known_packages.txt; relative imports are not) and an HTTP
//     client is imported.
//   - Secret: no credential literal (decontam/secrets; e-mail and user paths aside).
//   - Host@Acc, Endpoint@Acc, Method@Acc: of the captured request that agrees most
//     with the ground truth (host, then endpoint, then method). Hosts are the API
//     host and the documented URL's host; the endpoint is the route template matched
//     segment by segment against the captured path ({param} matches one segment,
//     a documented query string is ignored).
//   - ParamF1: that request's parameter keys (query, params, JSON and form body, and
//     the route's path parameters when the endpoint matches) against the documented
//     ones, else the keys observed in the real call (code_params), else the keys the
//     gold code sends when run in the sandbox.
//   - ExecReq: a request was captured. Mock: host ∧ endpoint ∧ method. Robust: Mock ∧
//     a status check ∧ exception handling.
//   - CodeBLEU (BLEU-4, keyword-weighted unigrams, tree-sitter subtrees, data flow;
//     0.25 each), ES (normalized character Levenshtein), token P/R/F1.
//   - failure_stage: the earliest of syntax → request → host → endpoint → method,
//     or hit.
//
// Samples whose ground truth has no endpoint (host_only without a path) are scored
// on host and method (Mock = host ∧ method) and summarized apart ("no_endpoint").
// summary.json aggregates per (setting, model): overall and by doc_match_type,
// comments_source and time slice (repository created_at before/after a cutoff),
// corpus-level CodeBLEU, pass@k over sample_index, failure stages and statuses.
package evaluate
