// Package realcall is the bounded real-call validation of the paper's §VI: does a
// request that Mock scores as a hit reach a real, answering endpoint? It rebuilds
// requests from what the sandbox recorded in evaluation results (never by running
// generated code against the network), screens each service with its gold request,
// and sends a bounded sample of Mock-positive and Mock-negative requests to the
// services that answered, recording status, latency and the sha256 of each body.
//
// Safety comes first and every exclusion is counted and named: only GET (or HEAD,
// where the code asked for it) without a body; no route or parameter that names a
// write; only services the crawled metadata marks FREE, or hosts the user allows;
// no private, loopback or link-local address (checked on the address dialled, so a
// name that resolves there later is refused too) except a host the user maps with
// Resolve; no redirect to another host; a credential only from the environment,
// only in the headers the service documents, never written anywhere; a rate limit
// per host and a total budget of calls. A dry run, the default, plans and sends
// nothing. Calls sent are kept in the store, so a killed run resumes.
package realcall
