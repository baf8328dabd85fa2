package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"sccg/crawl"
	"sccg/evaluate"
	"sccg/evaluate/jsbox"
	"sccg/evaluate/retrieve"
	"sccg/evaluate/sandbox"
	"sccg/internal/pipeline"
	"sccg/lang"
	"sccg/llm"
	"sccg/release"
	"sccg/samples"
	"sccg/store"
)

const retrieveUsage = `[--bench FILE] [--split NAME] [--docs PATH]... --retriever NAME[,NAME...] [--out FILE.json]

Scores endpoint retrieval on a benchmark: for every sample, the retriever searches
the endpoint documents with the sample's intent (its comments, else its function
name) and the ranks of the gold host and endpoint give Host@K and Endpoint@K
(K = 1, 3, 5, 10), top-K accuracy (K = 5, 10, 20, 40), MRR, and recall@k and
precision@k (k = 3, 5, 10, 15) over the endpoints the sample's gold code calls in
the sandbox, overall and by doc_match_type, with Wilson 95% intervals.

The samples are those of --bench FILE, or of the store (--db) without it; --split
keeps one split (from each record's "split" field, else the store's assignment).
The documents come from --docs (OpenAPI / ToolBench files or folders), else the
store's crawled endpoints, else the benchmark's own api_metadata; the output says
which. Several retrievers, comma-separated, are compared in one table.

learned ranks with a model trained on a benchmark's samples (--train FILE, documents
from --train-docs or the samples' own api_metadata): offline, on the CPU, in seconds.
The model is kept in the store (--db), so training again on the same inputs finds it,
and without --train the store's last ranker (or --ranker ID) is used. Splits are by
API: the output counts the scored samples whose API was in training. --cv K scores
it by cross-validation by API on the --train samples instead (each fold's APIs held
out of its training), beside the other retrievers on the same samples.

dense and hybrid need an embeddings model (--llm-url, --embed-model); hyde, capir
and --rerank llm need a chat model (--llm-url, --llm-model); hyde and capir also
use the embeddings when given one. Every LLM answer and vector is cached in the
store (--db), so a rerun sends nothing.`

// retrieveOutput is the --out file: one report per retriever.
type retrieveOutput struct {
	Reports []*retrieve.Report `json:"reports"`
}

func runRetrieve(ctx context.Context, e *env, args []string) error {
	fs := e.flags("retrieve", retrieveUsage)
	bench := fs.String("bench", "", "benchmark `file` in the published format (default: the store's samples)")
	split := fs.String("split", "", "keep only this split (train, validation or test)")
	var docs multiFlag
	fs.Var(&docs, "docs", "OpenAPI or ToolBench `path` (file or folder) to build the corpus from; repeatable")
	corpusFrom := fs.String("corpus", "auto", "corpus `source`: auto (docs, else store, else bench), docs, store or bench")
	names := fs.String("retriever", retrieve.NameBM25, "retriever `names`, comma-separated: "+strings.Join(retrieve.Names, ", "))
	out := fs.String("out", "", "write the reports with every sample's ranks to this JSON `file`")
	k1 := fs.Float64("k1", retrieve.DefaultBM25.K1, "BM25 k1 (term-frequency saturation)")
	b := fs.Float64("b", retrieve.DefaultBM25.B, "BM25 b (length normalization, 0–1)")
	depth := fs.Int("depth", retrieve.DefaultDepth, "documents retrieved per query")
	keep := fs.Int("keep-hits", 10, "hits kept per sample in --out (0: none)")
	withName := fs.Bool("with-name", false, "add the function name to the comments in every query")
	noRun := fs.Bool("no-run", false, "do not run the gold code in the sandbox: the used endpoints are the labeled one only")
	workers := fs.Int("workers", 0, "queries (and sandboxed gold runs) in flight (default GOMAXPROCS)")
	python := fs.String("python", "", "python interpreter for Python gold runs (default python3 on PATH; JavaScript and TypeScript run in goja)")
	lf := bindLLMFlags(fs)
	queryPrefix := fs.String("query-prefix", "", "text put before every query before it is embedded (bge: \"Represent this sentence for searching relevant passages: \")")
	docPrefix := fs.String("doc-prefix", "", "text put before every document before it is embedded (e5: \"passage: \")")
	rerank := fs.String("rerank", "none", "`how` to rerank every retriever's top --candidates: none or llm")
	candidates := fs.Int("candidates", 20, "documents the LLM sees when reranking (--rerank llm, capir)")
	perTask := fs.Int("per-task", 10, "documents capir retrieves per subtask")
	rrfK := fs.Int("rrf-k", 60, "reciprocal-rank-fusion constant (hybrid, hyde, capir)")
	var tf trainFlags
	tf.bind(fs, "the learned retriever trains on their intents and labeled endpoints")
	cv := fs.Int("cv", 0, "cross-validate the learned retriever by API in `k` folds on the --train samples (and score the other retrievers on them) instead of --bench")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if *split != "" {
		n, err := release.NormalizeName(*split)
		if err != nil {
			return usagef("--split: %v", err)
		}
		*split = n
	}
	var retrievers []string
	for _, n := range strings.Split(*names, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if !slices.Contains(retrieve.Names, n) {
			return usagef("--retriever: unknown retriever %q (known: %s)", n, strings.Join(retrieve.Names, ", "))
		}
		retrievers = append(retrievers, n)
	}
	if len(retrievers) == 0 {
		return usagef("--retriever: name at least one retriever")
	}
	switch *corpusFrom {
	case "auto", retrieve.SourceDocs, retrieve.SourceStore, retrieve.SourceBench:
	default:
		return usagef("--corpus: unknown source %q (want auto, docs, store or bench)", *corpusFrom)
	}
	if *corpusFrom == retrieve.SourceDocs && len(docs) == 0 {
		return usagef("--corpus docs needs --docs PATH")
	}
	if *k1 <= 0 || *b < 0 || *b > 1 {
		return usagef("--k1 must be positive and --b between 0 and 1")
	}
	if *depth < 1 {
		return usagef("--depth must be at least 1")
	}
	if *rerank != "none" && *rerank != "llm" {
		return usagef("--rerank: unknown %q (want none or llm)", *rerank)
	}
	if *candidates < 2 || *perTask < 1 || *rrfK < 1 {
		return usagef("--candidates must be at least 2, --per-task and --rrf-k at least 1")
	}
	if err := tf.check(); err != nil {
		return err
	}
	learned := slices.Contains(retrievers, retrieve.NameLearned)
	if tf.given() && !learned {
		return usagef("--train, --train-docs and --ranker are the learned retriever's: add learned to --retriever")
	}
	if *cv != 0 {
		switch {
		case *cv < 2:
			return usagef("--cv must be at least 2 folds")
		case !learned || tf.file == "":
			return usagef("--cv cross-validates the learned retriever on its training samples: give --retriever learned and --train FILE")
		case *bench != "" || *split != "" || len(docs) > 0 || *corpusFrom != "auto":
			return usagef("--cv scores the --train samples against their own documents: --bench, --split, --docs and --corpus do not apply")
		case *rerank != "none":
			return usagef("--cv and --rerank: cross-validation scores the learned ranker alone")
		}
	}
	needChat, needEmbed := *rerank == "llm", false
	for _, n := range retrievers {
		switch n {
		case retrieve.NameDense, retrieve.NameHybrid:
			needEmbed = true
		case retrieve.NameHyDE, retrieve.NameCAPIR:
			needChat = true
		}
	}
	if needEmbed && (lf.url == "" || lf.embedModel == "") {
		return usagef("dense and hybrid retrieval need an embeddings model: give --llm-url and --embed-model")
	}
	if needChat && (lf.url == "" || lf.model == "") {
		what := "hyde and capir"
		if *rerank == "llm" {
			what = "--rerank llm, hyde and capir"
		}
		return usagef("%s need an LLM: give --llm-url and --llm-model (no LLM is configured)", what)
	}

	if learned && *cv == 0 {
		if err := tf.noRanker(e); err != nil {
			return err
		}
	}
	// The store is read when there is one (or no --bench): its samples, splits and
	// endpoints. A missing default store is not created.
	var st *store.Store
	if *bench == "" || fileExists(e.db) || needChat || needEmbed || learned { // the LLM cache; the ranker's home
		if st, err = e.openStore(ctx); err != nil {
			return err
		}
		defer st.Close()
	}
	var all []release.Record
	var splits []string
	var corpus *retrieve.Corpus
	if *cv > 0 {
		if all, err = readTrainFile(tf.file); err != nil {
			return err
		}
		if corpus, _, err = trainSet(ctx, all, tf.file, tf.docs, *withName); err != nil {
			return err
		}
		splits = make([]string, len(all))
	} else if all, splits, err = retrieveRecords(ctx, st, *bench, e.db); err != nil {
		return err
	}
	recs := all
	if *split != "" {
		recs = nil
		for i := range all {
			if splits[i] == *split {
				recs = append(recs, all[i])
			}
		}
		if len(recs) == 0 {
			return usagef("--split %s: no sample of %s is in that split (splits come from each record's \"split\" field or the store's assignment; give a split file such as splits/%s.json instead)",
				*split, benchName(*bench, e.db), *split)
		}
	}
	if corpus == nil {
		if corpus, err = retrieveCorpus(ctx, st, *corpusFrom, docs, all); err != nil {
			return err
		}
	}
	for _, p := range corpus.Problems {
		fmt.Fprintf(e.stderr, "sccg retrieve: corpus: %s\n", p)
	}

	queries := retrieve.Queries(recs, retrieve.QueryOptions{WithName: *withName})
	if !*noRun {
		if err := addGoldCalls(ctx, e, queries, *python, *workers); err != nil {
			return err
		}
	}
	opts := retrieve.Options{BM25: retrieve.BM25Options{K1: *k1, B: *b}, QueryPrefix: *queryPrefix, DocPrefix: *docPrefix,
		RRFK: *rrfK, PerTask: *perTask, Candidates: *candidates}
	client, err := lf.client(e, st)
	if err != nil {
		return err
	}
	if client != nil {
		if lf.embedModel != "" {
			opts.Embedder, opts.EmbedModel = client, lf.embedModel
		}
		if lf.model != "" {
			opts.Chat, opts.ChatModel = client, lf.model
		}
	}
	var ranker *retrieve.Trained
	if learned && *cv == 0 {
		if ranker, err = tf.model(ctx, e, st, "retrieve", *withName); err != nil {
			return err
		}
		opts.Ranker = ranker.Model
	}
	keepHits := *keep
	if keepHits == 0 {
		keepHits = -1
	}
	var res retrieveOutput
	for _, name := range retrievers {
		var before llm.Usage
		if client != nil {
			before = client.Usage()
		}
		crossValidate := name == retrieve.NameLearned && *cv > 0
		var r retrieve.Retriever
		if !crossValidate {
			r, err = retrieve.New(ctx, name, corpus, opts)
			if err == nil && *rerank == "llm" {
				r, err = retrieve.Rerank(r, corpus, opts)
				name += "+rerank"
			}
			if errors.Is(err, retrieve.ErrNeedsLLM) {
				return usagef("%v", err)
			}
			if err != nil {
				return err
			}
		}
		var rep *retrieve.Report
		if crossValidate {
			var folds []retrieve.Fold
			rep, folds, err = retrieve.CrossValidate(ctx, corpus, queries, *cv, retrieve.TrainOptions{Source: tf.file, DocsSource: corpus.Source})
			if err != nil {
				return fmt.Errorf("cross-validate %s: %w", name, err)
			}
			rep.Settings = map[string]any{"folds": folds}
			for i, f := range folds {
				fmt.Fprintf(e.stderr, "sccg retrieve: cv fold %d: %d samples of %d APIs held out; %s\n", i+1, f.Samples, len(f.APIs), f.Model.Describe())
			}
		} else {
			ctr := e.progress().Start("retrieve "+name, int64(len(queries)))
			rep, err = retrieve.Evaluate(ctx, retrieve.Config{Corpus: corpus, Retriever: r, Name: name, Queries: queries,
				Depth: *depth, KeepHits: keepHits, Workers: *workers, Progress: ctr})
			if err != nil {
				return fmt.Errorf("retrieve %s: %w", name, err)
			}
			rep.Settings = map[string]any{}
		}
		rep.Settings["bench"], rep.Settings["split"], rep.Settings["gold_run"] = benchName(*bench, e.db), *split, !*noRun
		rep.Settings["with_name"], rep.Settings["k1"], rep.Settings["b"] = *withName, *k1, *b
		if *cv > 0 {
			rep.Settings["bench"] = tf.file + " (cross-validation by API)"
		}
		if name == retrieve.NameLearned && ranker != nil {
			n := trainOverlap(ranker.Model, queries)
			rep.Settings["ranker"] = map[string]any{"id": ranker.ID, "trained": ranker.Model.Describe(), "lambda": ranker.Model.Lambda,
				"weights": ranker.Model.TopWeights(len(ranker.Model.Weights)), "scored_samples_of_training_apis": n}
			if n > 0 {
				fmt.Fprintf(e.stderr, "sccg retrieve: learned: %d of the %d samples scored are of APIs the ranker was trained on: their scores are not of held-out APIs\n", n, len(queries))
			}
		}
		if fc, ok := r.(retrieve.FallbackCounter); ok {
			counts := fc.Counts()
			rep.Settings["unusable_answers"] = counts
			for _, what := range slices.Sorted(maps.Keys(counts)) {
				fmt.Fprintf(e.stderr, "sccg retrieve: %s: %d LLM answer(s) not usable: %s\n", name, counts[what], what)
			}
		}
		if client != nil {
			u := client.Usage()
			rep.Settings["llm"] = map[string]any{"base_url": lf.url, "model": lf.model, "embed_model": lf.embedModel,
				"query_prefix": *queryPrefix, "doc_prefix": *docPrefix,
				"requests": u.Requests - before.Requests, "cache_hits": u.CacheHits - before.CacheHits,
				"prompt_tokens": u.PromptTokens - before.PromptTokens, "completion_tokens": u.CompletionTokens - before.CompletionTokens}
			fmt.Fprintf(e.stderr, "sccg retrieve: %s: %d LLM requests, %d answers from the cache\n", name,
				u.Requests-before.Requests, u.CacheHits-before.CacheHits)
		}
		res.Reports = append(res.Reports, rep)
	}
	if *out != "" {
		data, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return fmt.Errorf("encode reports: %w", err)
		}
		if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("write reports: %w", err)
		}
	}
	if e.json {
		return e.printJSON(res)
	}
	if err := retrieve.WriteTables(e.stdout, res.Reports...); err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(e.stdout, "\nwrote %s (every sample's ranks and top hits)\n", *out)
	}
	return nil
}

// retrieveRecords reads the benchmark file, or the store's samples without one,
// with the split of each record: its "split" field, else the store's assignment of
// its sample_id, else "".
func retrieveRecords(ctx context.Context, st *store.Store, bench, db string) ([]release.Record, []string, error) {
	if bench == "" {
		recs, splits, err := samples.Records(ctx, st)
		if err != nil {
			return nil, nil, err
		}
		if len(recs) == 0 {
			return nil, nil, usagef("the store %s has no samples: give --bench FILE, or import a benchmark first", db)
		}
		return recs, splits, nil
	}
	recs, err := release.ReadFile(bench)
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, usagef("--bench %s holds no records", bench)
	}
	stored := map[string]string{}
	if st != nil {
		smps, err := st.Samples(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range smps {
			stored[s.SampleID] = s.Split
		}
	}
	splits := make([]string, len(recs))
	for i, r := range recs {
		splits[i] = stored[r.SampleID]
		if raw, ok := r.Extra["split"]; ok {
			var name string
			if json.Unmarshal(raw, &name) == nil {
				if n, err := release.NormalizeName(name); err == nil {
					splits[i] = n
				}
			}
		}
	}
	return recs, splits, nil
}

// retrieveCorpus builds the corpus from the chosen source; auto takes --docs, else
// the store's endpoints, else the benchmark's records.
func retrieveCorpus(ctx context.Context, st *store.Store, from string, docs []string, recs []release.Record) (*retrieve.Corpus, error) {
	if from == "auto" {
		switch {
		case len(docs) > 0:
			from = retrieve.SourceDocs
		case st != nil:
			c, err := retrieve.FromStore(ctx, st)
			if err == nil {
				return c, nil
			}
			if !errors.Is(err, retrieve.ErrEmptyCorpus) {
				return nil, err
			}
			from = retrieve.SourceBench
		default:
			from = retrieve.SourceBench
		}
	}
	switch from {
	case retrieve.SourceDocs:
		return docsCorpus(ctx, docs)
	case retrieve.SourceStore:
		if st == nil {
			return nil, usagef("--corpus store: the store named by --db does not exist")
		}
		return retrieve.FromStore(ctx, st)
	}
	return retrieve.FromRecords(recs)
}

// docsCorpus builds the corpus of OpenAPI 3 / Swagger 2 documents and ToolBench
// tool files (files or folders), read and normalized by the crawl package as `sccg
// crawl` and `sccg build --docs` read them. A file that cannot be read is a problem
// of the corpus, not an error; no usable file at all is.
func docsCorpus(ctx context.Context, paths []string) (*retrieve.Corpus, error) {
	apis, eps, problems, err := readDocs(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("corpus from docs: %w", err)
	}
	c, err := retrieve.FromEndpoints(retrieve.SourceDocs, apis, eps, problems...)
	if err != nil && len(problems) > 0 {
		return nil, fmt.Errorf("%w (%s)", err, strings.Join(problems, "; "))
	}
	return c, err
}

// readDocs reads OpenAPI 3 / Swagger 2 documents and ToolBench tool files (files or
// folders) with the crawl package, as `sccg crawl` and `sccg build --docs` read
// them: the APIs (numbered from 1) and their current endpoints. A file that cannot
// be read is a problem naming it, not an error.
func readDocs(ctx context.Context, paths []string) ([]store.API, []store.Endpoint, []string, error) {
	openapi, toolbench, err := pipeline.ClassifyDocs(paths)
	if err != nil {
		return nil, nil, nil, err
	}
	var apis []store.API
	var eps []store.Endpoint
	var problems []string
	for _, set := range []struct {
		files []string
		load  func(context.Context, string) (*crawl.Doc, error)
	}{{openapi, crawl.LoadOpenAPIFile}, {toolbench, crawl.LoadToolBenchFile}} {
		for _, f := range set.files {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
			doc, err := set.load(ctx, f)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", f, err))
				continue
			}
			crawl.Normalize(doc)
			doc.API.ID = int64(len(apis) + 1)
			apis = append(apis, doc.API)
			for _, e := range doc.Endpoints {
				if e.IsCurrent {
					e.APIID = doc.API.ID
					eps = append(eps, e)
				}
			}
		}
	}
	return apis, eps, problems, nil
}

func benchName(bench, db string) string {
	if bench != "" {
		return bench
	}
	return db + " (store samples)"
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// addGoldCalls runs the gold code of queries, each in its language's runner: the
// Python sandbox, jsbox's workers for JavaScript and TypeScript. Only the runners
// the queries need are started; a language none serves is named on stderr.
func addGoldCalls(ctx context.Context, e *env, queries []retrieve.Query, python string, workers int) error {
	runners := map[lang.Name]retrieve.GoldRunner{}
	js := evaluate.JavaScriptRunners(jsbox.Options{Workers: workers})
	for _, n := range retrieve.Languages(queries) {
		if n == lang.Python {
			r, err := sandbox.New(ctx, sandbox.Options{Python: python})
			if err != nil {
				return fmt.Errorf("%w (--no-run scores without running the gold code)", err)
			}
			defer r.Close()
			runners[n] = r
			continue
		}
		if start := js[n]; start != nil {
			r, err := start(ctx)
			if err != nil {
				return fmt.Errorf("start the %s runner: %w (--no-run scores without running the gold code)", n, err)
			}
			defer r.Close()
			runners[n] = r
		}
	}
	unrun, err := retrieve.AddGoldCalls(ctx, runners, queries, workers)
	for _, n := range slices.Sorted(maps.Keys(unrun)) {
		fmt.Fprintf(e.stderr, "sccg retrieve: the gold code of %d %s sample(s) was not run: no runner for %s (their used endpoints are the labeled ones)\n", unrun[n], n, n)
	}
	return err
}
