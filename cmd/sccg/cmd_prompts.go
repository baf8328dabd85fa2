package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/prompts"
	"sccg/evaluate/retrieve"
	"sccg/llm"
	"sccg/store"
)

// benchFlags are the flags every command that builds prompts shares: the benchmark,
// its split, where documentation comes from, and the retrievers of the RAG settings.
type benchFlags struct {
	bench, split string
	docs         multiFlag
	k            int
	candidates   int
	dropLeaks    bool
	llm          *llmFlags
	queryPrefix  string
	docPrefix    string
	train        trainFlags
}

func (b *benchFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&b.bench, "bench", "", "benchmark in the published format: a file (JSON array or JSONL) or an export `dir`")
	fs.StringVar(&b.split, "split", "", "only this split (train, validation, test): the export dir's split file, or records with that split field")
	fs.Var(&b.docs, "docs", "documentation (OpenAPI 3 / Swagger 2 files, ToolBench tool JSON, or folders of them) for an imported benchmark; repeatable.\n"+
		"Without it, documentation comes from the store named by --db (a benchmark built there), else from each record's api_metadata")
	fs.IntVar(&b.k, "k", prompts.DefaultK, "documents a RAG prompt gives")
	fs.IntVar(&b.candidates, "candidates", prompts.DefaultCandidates, "at most this many endpoints in an endpoint-selection prompt")
	fs.BoolVar(&b.dropLeaks, "drop-leaks", false, "leave intent-only prompts that LeakCheck flags out (each reported) instead of failing")
	b.llm = bindLLMFlags(fs)
	fs.StringVar(&b.queryPrefix, "query-prefix", "", "rag-dense/rag-hybrid: text put before every query before it is embedded")
	fs.StringVar(&b.docPrefix, "doc-prefix", "", "rag-dense/rag-hybrid: text put before every document before it is embedded")
	b.train.bind(fs, "the learned retriever (--setting rag-learned) trains on them; bm25-nearest-train (sccg baseline) copies from them")
}

// docSource is the benchmark and the documentation its prompts draw on, read from
// one place: --docs, else the store when --db names one that documents APIs, else
// the benchmark's own records.
type docSource struct {
	bench   *evaluate.Bench
	catalog *prompts.Catalog
	st      *store.Store // the store --db names, when it was given; closed by close
	docs    []string
}

func (d *docSource) close() {
	if d.st != nil {
		d.st.Close()
	}
}

// load reads the benchmark and its documentation.
func (b *benchFlags) load(ctx context.Context, e *env) (*docSource, error) {
	if b.bench == "" {
		return nil, usagef("--bench is required")
	}
	src := &docSource{docs: b.docs}
	var err error
	if e.dbSet {
		if src.st, err = e.openStore(ctx); err != nil {
			return nil, err
		}
	}
	bench, err := loadBench(ctx, src.st, b.bench, b.split)
	if err != nil {
		src.close()
		return nil, err
	}
	src.bench = bench
	if src.catalog, err = docsCatalog(ctx, src.st, b.docs, bench); err != nil {
		src.close()
		return nil, err
	}
	e.logf("documentation: %d endpoints from %s", src.catalog.Len(), src.catalog.Source)
	return src, nil
}

// docsCatalog is the documentation of the gold endpoints: --docs, else the store's
// endpoints (when it has any), else the benchmark's records.
func docsCatalog(ctx context.Context, st *store.Store, docs []string, bench *evaluate.Bench) (*prompts.Catalog, error) {
	switch {
	case len(docs) > 0:
		apis, eps, problems, err := readDocs(ctx, docs)
		if err != nil {
			return nil, fmt.Errorf("--docs: %w", err)
		}
		if len(apis) == 0 {
			return nil, fmt.Errorf("--docs: no readable documentation in %v (%s)", docs, strings.Join(problems, "; "))
		}
		cat := prompts.NewCatalog(retrieve.SourceDocs, nil)
		for _, a := range apis {
			var mine []store.Endpoint
			for _, ep := range eps {
				if ep.APIID == a.ID {
					mine = append(mine, ep)
				}
			}
			cat.Add(prompts.StoreDocs(a, mine)...)
		}
		return cat, nil
	case st != nil:
		cat, err := prompts.CatalogFromStore(ctx, st)
		if err != nil || cat.Len() > 0 {
			return cat, err
		}
	}
	return prompts.CatalogFromRecords(bench.All), nil
}

// corpus is the endpoint documents the RAG settings retrieve from, from the same
// place as the catalog.
func (d *docSource) corpus(ctx context.Context) (*retrieve.Corpus, error) {
	from := "auto"
	if len(d.docs) == 0 && d.st == nil {
		from = retrieve.SourceBench
	}
	return retrieveCorpus(ctx, d.st, from, d.docs, d.bench.All)
}

// options are the prompts options of the flags for a setting and task, with the
// retriever of a RAG setting built.
func (b *benchFlags) options(ctx context.Context, e *env, src *docSource, setting, task string) (prompts.Options, error) {
	o := prompts.Options{Setting: setting, Task: task, Catalog: src.catalog, K: b.k, Candidates: b.candidates, DropLeaks: b.dropLeaks}
	s, err := prompts.NormalizeSetting(setting)
	if err != nil && task != prompts.TaskSelect {
		return o, usagef("--setting: %v", err)
	}
	if err := b.train.check(); err != nil {
		return o, err
	}
	if task == prompts.TaskSelect || !prompts.IsRAG(s) {
		return o, nil
	}
	corpus, err := src.corpus(ctx)
	if err != nil {
		return o, err
	}
	ro := retrieve.Options{QueryPrefix: b.queryPrefix, DocPrefix: b.docPrefix}
	name := prompts.RetrieverOf(s)
	if name == retrieve.NameLearned {
		if src.st == nil {
			// the ranker's home: the default store when --db was not given
			if err := b.train.noRanker(e); err != nil {
				return o, err
			}
			if src.st, err = e.openStore(ctx); err != nil {
				return o, err
			}
		}
		tr, err := b.train.model(ctx, e, src.st, "prompts", false)
		if err != nil {
			return o, err
		}
		ro.Ranker = tr.Model
	}
	if name == retrieve.NameDense || name == retrieve.NameHybrid {
		if b.llm.url == "" || b.llm.embedModel == "" {
			return o, usagef("--setting %s needs an embeddings model: give --llm-url and --embed-model", s)
		}
		var cache llm.Cache = llm.NewMemoryCache()
		if src.st != nil {
			cache = src.st
		}
		client, err := b.llm.client(e, cache)
		if err != nil {
			return o, err
		}
		ro.Embedder, ro.EmbedModel = client, b.llm.embedModel
	}
	if o.Retriever, err = retrieve.New(ctx, name, corpus, ro); err != nil {
		return o, err
	}
	o.Corpus = corpus
	return o, nil
}

func runPrompts(ctx context.Context, e *env, args []string) error {
	fs := e.flags("prompts", "--bench FILE|DIR [--split test] --setting S [--task select-endpoint] --out FILE")
	var bf benchFlags
	bf.bind(fs)
	setting := fs.String("setting", prompts.Intent, strings.Join(prompts.Settings, ", "))
	task := fs.String("task", prompts.TaskGenerate, "generate (write the function) or select-endpoint (rank the target among same-API endpoints)")
	out := fs.String("out", "", "prompts JSONL `file` to write")
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected arguments %q", rest)
	}
	if *out == "" {
		return usagef("--out is required")
	}
	if bf.train.given() && (settingOf(*setting) != prompts.RAGLearned || *task == prompts.TaskSelect) {
		return usagef("--train, --train-docs and --ranker are for --setting %s", prompts.RAGLearned)
	}
	src, err := bf.load(ctx, e)
	if err != nil {
		return err
	}
	defer src.close()
	o, err := bf.options(ctx, e, src, *setting, *task)
	if err != nil {
		return err
	}
	res, err := buildPrompts(ctx, e, src.bench, o)
	if err != nil {
		return err
	}
	cat := src.catalog
	if err := prompts.WriteFile(*out, res.Prompts); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"out": *out, "prompts": len(res.Prompts), "problems": res.Problems, "docs": cat.Source})
	}
	fmt.Fprintf(e.stdout, "wrote %d %s prompts to %s (documentation: %s, %d endpoints)\n", len(res.Prompts), settingName(*task, *setting), *out, cat.Source, cat.Len())
	return nil
}

// buildPrompts runs prompts.Build and reports every problem on stderr.
func buildPrompts(ctx context.Context, e *env, bench *evaluate.Bench, o prompts.Options) (*prompts.Output, error) {
	res, err := prompts.Build(ctx, bench.Samples, o)
	if res != nil && !e.json {
		for _, p := range res.Problems {
			verb := "note"
			if p.Skipped {
				verb = "skipped"
			}
			fmt.Fprintf(e.stderr, "sccg prompts: %s %s: %s: %s\n", verb, p.SampleID, p.Kind, p.Reason)
		}
	}
	return res, err
}

// settingOf is a setting's name, or "" for one that is not a setting.
func settingOf(s string) string {
	n, _ := prompts.NormalizeSetting(s)
	return n
}

// settingName is the setting prompts of task get: the task itself for endpoint
// selection.
func settingName(task, setting string) string {
	if task == prompts.TaskSelect {
		return prompts.TaskSelect
	}
	s, _ := prompts.NormalizeSetting(setting)
	return s
}
