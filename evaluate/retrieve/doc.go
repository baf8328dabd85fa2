// Package retrieve finds the documented endpoints that answer an intent, and scores
// how well it does on a benchmark.
//
// # Using it (RAG prompts, experiments)
//
//	corpus, _ := retrieve.FromStore(ctx, st)            // or FromEndpoints, FromRecords(recs)
//	r, _ := retrieve.New(ctx, retrieve.NameBM25, corpus, retrieve.Options{})
//	hits, _ := r.Retrieve(ctx, intent, 5)               // best first
//	for _, h := range hits {
//		prompt += corpus.Docs[h.Doc].Render()           // the endpoint as prompt text
//	}
//
// A Corpus holds one Document per documented endpoint (API title, description and
// category, endpoint name and description, method, route, parameters), sorted by
// host, route and method, whatever its source: the store's crawled endpoints
// (current versions), OpenAPI / ToolBench files (read by the crawl package in the
// CLI, which passes their endpoints to FromEndpoints: the evaluator imports no
// builder stage; see docsCorpus in cmd/sccg), or — when nothing else exists — the
// benchmark's own api_metadata. Corpus.Source says which.
//
// Every retriever implements Retriever and is safe for concurrent use; New builds
// one by name (Names).
//
//   - bm25: Okapi BM25 over Document.Text, cut by Tokenize (camelCase, snake_case,
//     kebab-case and path segments split, the joined form kept). It is a small
//     implementation in this package rather than bleve v2: bleve's BM25 hard-codes
//     k1 = 1.2 and b = 0.75 (the issue wants them configurable), scores √tf rather
//     than tf, takes document lengths from a quantized norm, and custom analyzers
//     are registered in a process-wide registry; an in-memory index of a few
//     thousand short documents needs none of its persistence. This one indexes
//     10,000 documents in about a second and answers thousands of queries per
//     second (BenchmarkBM25).
//   - learned: a linear ranker trained on a benchmark's samples (Train; learned.go
//     lists its features): per-field BM25 (API title and host, API description
//     and category, endpoint name, description, route, parameter names and
//     descriptions), BM25 of the whole API, prefix-stemmed BM25, BM25 with query
//     terms weighted by how many training APIs' intents use them, the best line of
//     a multi-line intent, coverage of the query and of the endpoint's name, route
//     and API name by the query, a write-verb cue and priors (method, API size,
//     path parameters, the root route). Each lexical feature is divided by its
//     largest value over the corpus for the query, so a model trained on one
//     corpus ranks another. The weights maximize a listwise softmax likelihood
//     of the labeled endpoint (damped Newton steps, deterministic, about a
//     second on a CPU), the match features' weights kept non-negative and every
//     weight pulled toward BM25 alone by an L2 penalty whose strength is chosen
//     by cross-validation by API inside the training samples. Splits are by API,
//     so a model must rank the endpoints of APIs it never saw: CrossValidate
//     measures that. TrainStored keeps a model in the store by the key of its
//     inputs; StoredRanker reads it back.
//   - dense: cosine similarity of embeddings from any OpenAI-compatible
//     /v1/embeddings model (Options.Embedder, *llm.Client), with optional query and
//     document prefixes (bge, e5); the client caches every vector in the store by
//     model and text hash.
//   - hybrid: reciprocal-rank fusion (Fusion) of bm25 and dense.
//   - hyde: an LLM writes the request code for the intent, and that code is
//     searched instead (BM25, fused with dense when embeddings are configured) —
//     DeepCodeSeek's hypothetical code.
//   - capir: an LLM decomposes the intent into subtasks, each is retrieved, the
//     rankings are fused and an LLM keeps the candidates that serve the task —
//     CAPIR's decomposer, retriever and reranker.
//   - Rerank wraps any retriever: an LLM reorders its first Options.Candidates hits.
//
// Every LLM step is greedy and goes through the shared client (package llm) and its
// cache, so a rerun sends nothing; a retriever that needs an LLM the options lack
// fails with ErrNeedsLLM. Dense, hybrid, hyde and capir are Preparers: given every
// query first, they ask the LLM steps for all of them at once and embed what they
// will search for in one call of the Embedder, which sends it in batches.
//
// # Scoring a benchmark
//
// Queries makes one Query per record (its comments, else its function name);
// AddGoldCalls runs each gold code in the sandbox to learn every endpoint it calls;
// Evaluate retrieves DefaultDepth documents per query and judges them
// (Corpus.Judge): a document is on a gold host when its host is one the evaluator
// accepts (evaluate.TruthOf), it is the labeled endpoint when its endpoint id is the
// label's or, failing that, its route template matches the label's route on a gold
// host with the label's method (the most specific such template), and it is used
// when it is the labeled endpoint or a request of the gold code matches it. The
// report (Report, WriteTables) has, overall and per doc_match_type:
//
//   - Host@K and Endpoint@K for K = 1, 3, 5, 10 (SCCGBench Table VIII): a gold-host
//     document, the labeled endpoint, among the first K;
//   - top-K accuracy for K = 5, 10, 20, 40 and MRR of the labeled endpoint
//     (DeepCodeSeek);
//   - recall@k and precision@k for k = 3, 5, 10, 15 over the set of endpoints the
//     sample uses (CAPIR): found / used, and found / min(k, retrieved);
//
// with Wilson 95% intervals on the rates, and every sample's ranks and top hits.
// Samples whose label names no endpoint count for Host@K only, as in the evaluator.
//
// This package imports evaluate (for the ground truth and the parsing of captured
// requests); evaluate must not import it.
package retrieve
