// Package beamjob is the corpus-mining job on Apache Beam (Go SDK): it matches the
// corpus shards, spreads them over the workers, reads each and applies the early
// filter (package corpus), groups the records into output shards, writes each, and
// writes the manifest last. The same pipeline runs in-process on the prism runner
// and unchanged on Dataflow, Flink or Spark: the targets travel inside the DoFns
// (the pipeline's options), shards and outputs are read and written through Beam's
// filesystems, and no step shares a file or state with another.
package beamjob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	// Filesystems the shards and outputs may be on.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	// Runners, registered by name for beam.Run.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"sccg/mine/corpus"
)

// DefaultRunner runs the pipeline in this process.
const DefaultRunner = "prism"

// DefaultShards is the number of output shards.
const DefaultShards = 16

// Config is one job.
type Config struct {
	Corpus    string               // a shard or a glob of shards (local, gs://)
	Format    corpus.Format        // empty: told from each shard's name
	Out       string               // the output directory (local, gs://)
	Shards    int                  // output shards (0: DefaultShards)
	Targets   []corpus.Target      // the crawled APIs to look for
	Filter    corpus.FilterOptions // size limit and endpoints per API
	CreatedAt string               // when the job was submitted (stamps the files)
}

func init() {
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(int, []byte), func([]byte), error](&mineShardFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func([]byte), error](&writeShardFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&writeManifestFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[[]byte]()
	register.Iter1[[]byte]()
}

// Build constructs the pipeline of cfg.
func Build(cfg Config) (*beam.Pipeline, error) {
	if cfg.Corpus == "" || cfg.Out == "" {
		return nil, errors.New("beamjob: the corpus and the output directory are required")
	}
	if cfg.Shards <= 0 {
		cfg.Shards = DefaultShards
	}
	if cfg.Format != "" {
		if _, err := corpus.ParseFormat(string(cfg.Format)); err != nil {
			return nil, err
		}
	}
	p, s := beam.NewPipelineWithRoot()
	shards := fileio.MatchFiles(s.Scope("corpus"), cfg.Corpus, fileio.MatchEmptyDisallow())
	shards = beam.Reshuffle(s, shards)
	records, inputs := beam.ParDo2(s.Scope("early filter"), &mineShardFn{Targets: cfg.Targets, Filter: cfg.Filter,
		Format: string(cfg.Format), Root: corpus.Root(cfg.Corpus), Shards: cfg.Shards}, shards)
	outputs := beam.ParDo(s.Scope("write outputs"), &writeShardFn{Out: cfg.Out, Shards: cfg.Shards}, beam.GroupByKey(s, records))
	// A seed part makes the manifest's group non-empty even for a corpus with no rows.
	seed := beam.Create(s, []byte(`{}`))
	parts := beam.GroupByKey(s, beam.AddFixedKey(s, beam.Flatten(s, seed, inputs, outputs)))
	beam.ParDo0(s.Scope("write manifest"), &writeManifestFn{Out: cfg.Out, Manifest: corpus.Manifest{
		Corpus: corpus.Label(cfg.Corpus), Format: string(cfg.Format), CreatedAt: cfg.CreatedAt,
		Filter: cfg.Filter, APIs: corpus.APIsOf(cfg.Targets)}}, parts)
	return p, nil
}

// Run builds the pipeline of cfg and runs it on runner (empty: DefaultRunner). A
// local output directory is created, and an earlier run's manifest in it removed
// first, so a manifest there always belongs to a finished run. A program that can
// be a worker of a cluster runner calls beam.Init itself, first thing in main;
// Run calls it when nothing has.
func Run(ctx context.Context, runner string, cfg Config) error {
	if runner == "" {
		runner = DefaultRunner
	}
	if !beam.Initialized() {
		beam.Init()
	}
	if runner == DefaultRunner && !strings.Contains(cfg.Corpus, "://") {
		// In this process the workers see what we see; on a cluster, a path may
		// exist only where the workers run.
		if m, err := filepath.Glob(cfg.Corpus); err != nil || len(m) == 0 {
			return fmt.Errorf("beamjob: no corpus shard matches %s", cfg.Corpus)
		}
	}
	if !strings.Contains(cfg.Out, "://") {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return fmt.Errorf("beamjob: %w", err)
		}
		if err := os.Remove(filepath.Join(cfg.Out, corpus.ManifestName)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("beamjob: %w", err)
		}
	}
	p, err := Build(cfg)
	if err != nil {
		return err
	}
	if _, err := beam.Run(ctx, runner, p); err != nil {
		return fmt.Errorf("beam pipeline on %s: %w", runner, err)
	}
	return nil
}

// manifestPart is one piece of the manifest: what one input shard held, or one
// output shard written.
type manifestPart struct {
	Input  *corpus.ShardStats  `json:"input,omitempty"`
	Output *corpus.OutputShard `json:"output,omitempty"`
}

// mineShardFn reads one corpus shard and emits each record the early filter makes,
// keyed by its output shard, and the shard's counts.
type mineShardFn struct {
	Targets []corpus.Target      `json:"targets"`
	Filter  corpus.FilterOptions `json:"filter"`
	Format  string               `json:"format"`
	Root    string               `json:"root"`
	Shards  int                  `json:"shards"`

	filter *corpus.Filter
	rows   beam.Counter
	found  beam.Counter
	bad    beam.Counter
}

func (fn *mineShardFn) Setup() {
	fn.filter = corpus.NewFilter(fn.Targets, fn.Filter)
	fn.rows = beam.NewCounter("sccg.corpus", "rows")
	fn.found = beam.NewCounter("sccg.corpus", "found")
	fn.bad = beam.NewCounter("sccg.corpus", "rejected_or_corrupt")
}

func (fn *mineShardFn) ProcessElement(ctx context.Context, m fileio.FileMetadata, emit func(int, []byte), emitPart func([]byte)) error {
	shard := corpus.ShardName(fn.Root, m.Path)
	emitRecord := func(r *corpus.Record) error {
		b, err := r.Encode()
		if err != nil {
			return err
		}
		emit(corpus.ShardOf(r.Key, fn.Shards), b)
		return nil
	}
	var stats corpus.ShardStats
	format := corpus.Format(fn.Format)
	var err error
	if format == "" {
		format, err = corpus.FormatOf(m.Path)
	}
	var r io.ReadCloser
	if err == nil {
		r, err = open(ctx, m.Path)
	}
	if err != nil {
		stats = corpus.ShardStats{Shard: shard, Error: err.Error()}
		if err := emitRecord(corpus.ShardFailure(shard, 0, err)); err != nil {
			return err
		}
	} else {
		stats, err = corpus.MineShard(ctx, fn.filter, format, shard, r, m.Size, emitRecord)
		r.Close()
		if err != nil {
			return fmt.Errorf("mine shard %s: %w", shard, err)
		}
	}
	fn.rows.Inc(ctx, stats.Rows)
	fn.found.Inc(ctx, stats.Found)
	fn.bad.Inc(ctx, stats.Rejected+stats.Corrupt)
	b, err := json.Marshal(manifestPart{Input: &stats})
	if err != nil {
		return err
	}
	emitPart(b)
	return nil
}

// open opens a shard through Beam's filesystem for its scheme.
func open(ctx context.Context, path string) (io.ReadCloser, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, err
	}
	if ra, ok := r.(io.ReaderAt); ok {
		return seekable{closeBoth{r, fs}, ra}, nil
	}
	return closeBoth{r, fs}, nil
}

// closeBoth closes a reader and the filesystem it came from.
type closeBoth struct {
	io.ReadCloser
	fs filesystem.Interface
}

func (c closeBoth) Close() error {
	err := c.ReadCloser.Close()
	if ferr := c.fs.Close(); err == nil {
		err = ferr
	}
	return err
}

// seekable is a shard reader that can also read at an offset (a local file), so a
// Parquet shard is read in place instead of into memory.
type seekable struct {
	closeBoth
	io.ReaderAt
}

// writeShardFn writes one output shard: its records in key order, so a retried
// bundle writes the same bytes.
type writeShardFn struct {
	Out    string `json:"out"`
	Shards int    `json:"shards"`
}

func (fn *writeShardFn) ProcessElement(ctx context.Context, shard int, records func(*[]byte) bool, emit func([]byte)) error {
	var lines [][]byte
	var b []byte
	for records(&b) {
		lines = append(lines, b)
	}
	name := corpus.OutputName(shard, fn.Shards)
	out, err := write(ctx, joinPath(fn.Out, name), func(w io.Writer) (any, error) {
		return corpus.WriteOutput(w, name, lines)
	})
	if err != nil {
		return err
	}
	o := out.(corpus.OutputShard)
	part, err := json.Marshal(manifestPart{Output: &o})
	if err != nil {
		return err
	}
	emit(part)
	return nil
}

// writeManifestFn gathers every part and writes the manifest, the job's last step.
type writeManifestFn struct {
	Out      string          `json:"out"`
	Manifest corpus.Manifest `json:"manifest"`
}

func (fn *writeManifestFn) ProcessElement(ctx context.Context, _ int, parts func(*[]byte) bool) error {
	m := fn.Manifest
	m.Inputs, m.Outputs = nil, nil
	var b []byte
	for parts(&b) {
		var p manifestPart
		if err := json.Unmarshal(b, &p); err != nil {
			return fmt.Errorf("manifest part: %w", err)
		}
		if p.Input != nil {
			m.Inputs = append(m.Inputs, *p.Input)
		}
		if p.Output != nil {
			m.Outputs = append(m.Outputs, *p.Output)
		}
	}
	m.Finish()
	_, err := write(ctx, joinPath(fn.Out, corpus.ManifestName), func(w io.Writer) (any, error) {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return nil, enc.Encode(m)
	})
	return err
}

// write creates path through Beam's filesystem and fills it with fill.
func write(ctx context.Context, path string, fill func(io.Writer) (any, error)) (any, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	v, err := fill(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return v, nil
}

// joinPath joins an output directory (a local path or a URL) and a file name.
func joinPath(dir, name string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return filepath.Join(dir, name)
}
