// Command sccg-beam runs sccg's corpus-mining job on Apache Beam: it reads the
// crawled APIs from the store, mines a Parquet or JSONL corpus with the pipeline of
// package beamjob on the runner --runner names (prism, in this process, by default;
// dataflow, flink, spark or universal on a cluster), and loads the outputs into the
// store when they are in a local directory. `sccg mine --corpus` runs it; it is its
// own binary because Beam more than doubles the size and the cold build time of
// sccg. It is also the worker binary on a cluster: Beam starts it with --worker.
//
// Beam's own flags (--runner, --endpoint, --project, --region, --temp_location,
// --environment_type, --worker_binary, …) are accepted as they are.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"

	"sccg/lang"
	"sccg/mine"
	"sccg/mine/corpus"
	"sccg/mine/corpus/beamjob"
	"sccg/store"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// options are sccg-beam's own flags.
type options struct {
	db, corpus, format, out string
	shards                  int
	maxFileBytes            int64
	endpointsPerAPI         int
	apis                    multiFlag
	langs                   string
	noLoad, json, verbose   bool
}

func bind(fs *flag.FlagSet) *options {
	o := &options{}
	fs.StringVar(&o.db, "db", "sccg.db", "the sccg store: its crawled APIs are mined for, and the outputs loaded into it")
	fs.StringVar(&o.corpus, "corpus", "", "the corpus: a Parquet or JSONL `shard or glob` (local, or gs://)")
	fs.StringVar(&o.format, "format", "", "the shards' format, parquet or jsonl (default: from each name)")
	fs.StringVar(&o.out, "out", "corpus-out", "the `directory` (local, or gs://) the output shards and the manifest go to")
	fs.IntVar(&o.shards, "shards", beamjob.DefaultShards, "output shards (each is held in one worker's memory while it is written: raise it for large corpora)")
	fs.Int64Var(&o.maxFileBytes, "max-file-bytes", mine.DefaultMaxFileBytes, "reject files larger than this many bytes")
	fs.IntVar(&o.endpointsPerAPI, "endpoints-per-api", mine.DefaultEndpointsPerAPI, "endpoints per API whose URL and route are matched")
	fs.Var(&o.apis, "api", "mine only for the API with this `slug` (repeatable)")
	fs.StringVar(&o.langs, "lang", "", "judge files of these `languages` only, comma-separated: python,javascript,typescript (default all)")
	fs.BoolVar(&o.noLoad, "no-load", false, "write the outputs but do not load them (sccg mine --load DIR loads them)")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON on stdout")
	fs.BoolVar(&o.verbose, "verbose", false, "show Beam's and the runner's progress lines")
	return o
}

func main() {
	o := bind(flag.CommandLine)
	flag.Parse()
	if !o.verbose {
		beamlog.LogLevel = "warn"
	}
	beam.Init() // a worker of a cluster runner never returns from here
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, o, *runners.Runner, os.Stdout)
	stop()
	var ue usageError
	switch {
	case err == nil:
	case errors.As(err, &ue):
		fmt.Fprintf(os.Stderr, "sccg-beam: %v\n", err)
		os.Exit(2)
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "sccg-beam: interrupted; run it again (loading resumes where it stopped)")
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "sccg-beam: %v\n", err)
		os.Exit(1)
	}
}

type usageError string

func (u usageError) Error() string { return string(u) }

// result is what a run reports.
type result struct {
	Runner   string            `json:"runner"`
	Out      string            `json:"out"`
	Seconds  float64           `json:"seconds"`
	Manifest map[string]int64  `json:"manifest,omitempty"`
	Load     *corpus.LoadStats `json:"load,omitempty"`
}

func run(ctx context.Context, o *options, runner string, stdout io.Writer) error {
	switch {
	case flag.NArg() > 0:
		return usageError(fmt.Sprintf("no arguments expected, got %q", flag.Args()))
	case o.corpus == "":
		return usageError("--corpus is required: a Parquet or JSONL shard, or a glob of them")
	case o.shards <= 0 || o.maxFileBytes <= 0 || o.endpointsPerAPI <= 0:
		return usageError("--shards, --max-file-bytes and --endpoints-per-api must be positive")
	}
	var langs []lang.Name
	if o.langs != "" {
		l, err := mine.Languages(strings.Split(o.langs, ","))
		if err != nil {
			return usageError("--lang: " + err.Error())
		}
		langs = l
	}
	var format corpus.Format
	if o.format != "" {
		f, err := corpus.ParseFormat(o.format)
		if err != nil {
			return usageError(err.Error())
		}
		format = f
	}
	if runner == "" {
		runner = beamjob.DefaultRunner
	}
	st, err := store.Open(ctx, o.db)
	if err != nil {
		return err
	}
	defer st.Close()
	ts, err := mine.Targets(ctx, st, o.apis)
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		return fmt.Errorf("the store %s has no crawled API with a host to mine for (run sccg crawl first)", o.db)
	}
	cfg := beamjob.Config{Corpus: o.corpus, Format: format, Out: o.out, Shards: o.shards, Targets: corpus.Targets(ts),
		Filter:    corpus.FilterOptions{MaxFileBytes: o.maxFileBytes, EndpointsPerAPI: o.endpointsPerAPI, Languages: langs},
		CreatedAt: time.Now().UTC().Format("2006-01-02T15:04:05Z")}
	start := time.Now()
	if err := beamjob.Run(ctx, runner, cfg); err != nil {
		return err
	}
	res := result{Runner: runner, Out: o.out, Seconds: time.Since(start).Seconds()}
	remote := strings.Contains(o.out, "://")
	if !remote {
		m, err := corpus.ReadManifest(o.out)
		if err != nil {
			return err
		}
		res.Manifest = m.Counts
		if !o.noLoad {
			if res.Load, err = corpus.Load(ctx, st, o.out, corpus.LoadOptions{}); err != nil {
				return err
			}
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "corpus mined on %s in %.2fs into %s", runner, res.Seconds, o.out)
	if res.Manifest != nil {
		fmt.Fprintf(stdout, ": %d rows in %d shards, %d found, %d rejected, %d corrupt", res.Manifest["rows"],
			res.Manifest["input_shards"], res.Manifest["found"], res.Manifest["rejected"], res.Manifest["corrupt"])
	}
	fmt.Fprintln(stdout)
	switch {
	case res.Load != nil:
		fmt.Fprintf(stdout, "loaded: %d output shards (%d already loaded), %d files, %d decisions; %d files with dated lines, %d without\n",
			res.Load.Loaded, res.Load.Skipped, res.Load.Files, res.Load.Decisions, res.Load.LineDates.Dated, res.Load.LineDates.UndatedTotal())
	case remote:
		fmt.Fprintf(stdout, "copy %s to a local directory and run: sccg mine --load DIR\n", o.out)
	default:
		fmt.Fprintf(stdout, "not loaded (--no-load); run: sccg mine --load %s\n", o.out)
	}
	return nil
}
