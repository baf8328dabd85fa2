// Package evaluate scores generated code: it runs each completion in a sandboxed
// virtual environment that records the HTTP requests it tries to send, computes the
// benchmark metrics, and writes results and summaries (package report renders
// their tables).
//
// Per completion (Result, one line of results.jsonl):
//
//   - Syntax: the code compiles (CPython, in the sandbox).
//   - Dep: every import is a standard-library module or a known distribution
//     (pyfacts/stdlib_modules.txt, known_packages.txt; relative imports are not) and an HTTP
//     client is imported.
//   - Secret: no credential literal (package secrets; e-mail and user paths aside).
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
//   - DepRecall (DevEval's dependency recall): the share of the gold code's
//     third-party imports (neither standard library nor relative; top-level
//     modules) that the completion imports, both read from the sandbox's facts of
//     their runs (the gold code runs once per sample for it). A sample whose gold
//     code imports nothing third-party scores 1 and is left out of the summary's
//     dep_recall, which also gives DevEval's Recall@k over sample_index (the
//     expected best of k completions).
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
//
// # Isolation and the fork server
//
// The issue asks that each completion run "as a fresh process (exec, not a fork of a
// warm interpreter that earlier code could have changed)", with limits and a
// network namespace. By default each completion runs in a child forked from a warm
// fork server (sandbox.Options.Exec, `sccg eval --exec`, starts a fresh exec
// instead). This meets the same requirement:
//
//   - no earlier code can have changed the server: it loads the harness and common
//     standard modules and never runs generated code — only its children do, and
//     nothing flows back from a child to it but a pid, a wait status and a CPU time;
//   - each child is a new process with its own process group and environment; the
//     server and its children share user, network, IPC and UTS namespaces of their
//     own, made once when the server starts (the network has nothing but a loopback
//     that is down, so the evaluator is out of reach; a sibling is kept out by the
//     audit hook, which refuses bind, connect and sendto);
//   - the children of one server run one at a time in its scratch directory, which
//     it empties after each (a file left to be truncated is kept only while it is a
//     plain file with one link); no run may look into the sandbox directory around
//     it, so none sees another's files;
//   - it then sets the same rlimits and arms the same audit hook as an exec'd run,
//     before any generated code runs; no process that runs generated code has ctypes
//     loaded, so the hook is the one way to a system call;
//   - summary.json's isolation names what was granted (e.g.
//     "fork-server+userns+netns+ipcns+utsns+rlimits+audit-hook", or the reason there
//     are no namespaces).
//
// Per completion, a fork-server run costs about 6 ms of CPU (BenchmarkRunSplit:
// the child's setup ~2.4 ms, mostly pages copied on first write after the fork, the
// code ~1.4 ms, its exit ~1.1 ms, the server's fork ~0.9 ms, the evaluator ~0.6
// ms); an exec'd run ~23 ms. The floor of a run, without any code, is ~3.4 ms.
package evaluate
