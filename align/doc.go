// Package align binds each candidate function to the documented endpoint it calls
// (url, route or host_only evidence) and groups exact and near-duplicate functions
// across repositories.
//
// For every request call site of a function (the facts its language's frontend
// recorded, lang.Facts), the hosts the code evidences — the URL's host, an x-rapidapi-host header, or failing both a
// documented host written elsewhere in the code — select the candidate endpoints:
// the route templates of those hosts the observed path fits, found through a
// per-host index (internal/route.Index; {name} is one path segment, a code
// placeholder may stand for several parameter segments when the fit also matches
// a literal; query strings, trailing and doubled slashes are ignored). The
// alignment is
//
//   - url: a documented route matched and the full endpoint URL (up to its first
//     path parameter) is a literal of the code;
//   - route: a documented route matched but the URL was assembled (base URL + path,
//     f-strings, a host only in a header);
//   - host_only: no documented route matched. The observed path is kept with
//     endpoint_source "observed" when it says something, else endpoint_source is
//     "none"; an endpoint is never invented.
//
// The label rules, the same for every language because they read only the facts
// every frontend records (lang.Facts):
//
//   - own request: the primary alignment is a request the function sends itself
//     before one a same-file helper sends for it (a helper called for a default
//     value does not lend the function its endpoint), then one that names an
//     endpoint before a refused one, then the strongest, then the first;
//   - no invented method: a route is taken only if it documents the code's method
//     and fits the path as well as any (a literal of the path never merely fills a
//     parameter of it where another route matches that literal); else the label is
//     host_only with the code's method and path, or, when the path says too little,
//     refused (method_not_documented);
//   - empty segments: "/repos//lab/issues" binds the empty value to {owner}
//     (route.Fit.Empty), and is also read with its slashes collapsed;
//   - refusals (Evidence.Refused; decontam rejects a function whose primary
//     alignment is refused): a whole path from the function's parameter that fits no
//     route, or a path that fits routes only when a placeholder stands for their
//     literal tail after a fixed base (generic_wrapper); a placeholder that fills a
//     segment where every route it could name has a literal, when it is a parameter
//     of the function or could name several routes (resource_selected_by_parameter);
//     a whole URL read from component state, as React's useState (generic_wrapper,
//     lang.Call.StateFrom).
//
// Every rule that decided is written, in words, into the alignment's evidence
// (Evidence.Rules) and the function's decision, which sccg why lists.
//
// Ties between endpoints (several versions, several evidenced hosts, one route under
// several methods, several templates a path fits) are broken by method agreement,
// host evidence order, literal-to-literal segment matches (/users/@me before
// /users/{user_id}), fewer segments spanned by a placeholder, route specificity,
// overlap with the observed parameters and the current version; the losers are
// recorded as alternatives with how the path fit them, and the function's decision
// lists the candidates and the choice (RouteChoice). The ground-truth parameters are the
// endpoint's documented ones, else those observed in the call (params_source). Each
// alignment carries its evidence: rule, literal, line.
//
// Dedup ranks every aligned function by one order-independent rule (Preferred: a
// function that makes a request itself before one that only calls a same-file
// helper, then the quality score of its own body without the repository's stars
// and forks, which depend on where a repository was mined from, then repository,
// path, qualname and start line; never row ids), groups exact copies by the
// extractor's normalized
// code hash and near-duplicates by MinHash LSH over token 5-gram shingles of the
// function as written (package minhash: 256 permutations, Jaccard 0.85 by default,
// verified exactly, union-find), only between functions aligned to the same
// endpoint; a cluster's representative is its first member in that order, and every
// function's rank is stored for decontam to follow.
//
// Run does both over the store: alignments and a decision per function (stage
// "align"), resumable per function, then the dedup table recomputed as a whole.
package align
