package beamjob_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"sccg/extract"
	"sccg/mine"
	"sccg/mine/corpus"
	"sccg/mine/corpus/beamjob"
)

// benchCorpus copies the replay repositories copies times as plain folders, in
// groups folders of repositories, and packs each group as one Parquet shard. It
// returns the group folders, the shard glob and the number of Python files.
func benchCorpus(b *testing.B, copies, groups int) ([]string, string, int) {
	b.Helper()
	root := b.TempDir()
	metas, err := filepath.Glob(filepath.Join(replayRepos, "*", "*", "files"))
	if err != nil || len(metas) == 0 {
		b.Fatalf("no replay repositories (%v)", err)
	}
	var dirs []string
	for g := 0; g < groups; g++ {
		dirs = append(dirs, filepath.Join(root, "repos", fmt.Sprintf("g%d", g)))
	}
	python := 0
	n := 0
	for c := 0; c < copies; c++ {
		for _, files := range metas {
			repo := filepath.Base(filepath.Dir(files))
			owner := filepath.Base(filepath.Dir(filepath.Dir(files)))
			dst := filepath.Join(dirs[n%groups], fmt.Sprintf("%s__%s-%d", owner, repo, c))
			n++
			err := filepath.WalkDir(files, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(files, p)
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if _, skip, ok := mine.SourceOf(rel, nil); ok && skip == "" {
					python++
				}
				out := filepath.Join(dst, rel)
				os.MkdirAll(filepath.Dir(out), 0o755)
				return os.WriteFile(out, data, 0o644)
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	shards := filepath.Join(root, "shards")
	os.MkdirAll(shards, 0o755)
	for g, dir := range dirs {
		pack(b, dir, filepath.Join(shards, fmt.Sprintf("g%d.parquet", g)))
	}
	return dirs, filepath.Join(shards, "*.parquet"), python
}

// BenchmarkMineCorpus mines the same corpus (the replay repositories eight times
// over, 4 shards) with `mine --local` and through the Beam pipeline on the prism
// runner in this process, loading included, and reports Python files per second of
// each; then the extraction of what the filter let through. Run it on the
// machine's cores (make bench: 2).
func BenchmarkMineCorpus(b *testing.B) {
	dirs, glob, files := benchCorpus(b, 8, 4)
	ctx := context.Background()
	b.Run("local", func(b *testing.B) {
		var elapsed time.Duration
		for i := 0; i < b.N; i++ {
			st := catalogStore(b)
			start := time.Now()
			for _, d := range dirs {
				if _, err := mine.MineLocal(ctx, st, d, mine.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			elapsed += time.Since(start)
		}
		b.ReportMetric(float64(files), "files")
		b.ReportMetric(float64(files*b.N)/elapsed.Seconds(), "files/s")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
	})
	b.Run("beam-prism", func(b *testing.B) {
		var pipeline, total time.Duration
		for i := 0; i < b.N; i++ {
			st := catalogStore(b)
			out := b.TempDir()
			cfg := config(b, st, glob, out)
			start := time.Now()
			if err := beamjob.Run(ctx, "prism", cfg); err != nil {
				b.Fatal(err)
			}
			pipeline += time.Since(start)
			if _, err := corpus.Load(ctx, st, out, corpus.LoadOptions{}); err != nil {
				b.Fatal(err)
			}
			total += time.Since(start)
		}
		b.ReportMetric(float64(files), "files")
		b.ReportMetric(float64(files*b.N)/total.Seconds(), "files/s")
		b.ReportMetric(float64(files*b.N)/pipeline.Seconds(), "pipeline-files/s")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
	})
	// What comes after the filter: `sccg extract` over the files it let through.
	b.Run("extract-after-filter", func(b *testing.B) {
		st := catalogStore(b)
		out := b.TempDir()
		if err := beamjob.Run(ctx, "prism", config(b, st, glob, out)); err != nil {
			b.Fatal(err)
		}
		if _, err := corpus.Load(ctx, st, out, corpus.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		var elapsed time.Duration
		extracted := 0
		for i := 0; i < b.N; i++ {
			start := time.Now()
			stats, err := extract.Run(ctx, st, extract.Options{Refresh: true})
			if err != nil {
				b.Fatal(err)
			}
			elapsed += time.Since(start)
			extracted += stats.Files
		}
		b.ReportMetric(float64(extracted/b.N), "files")
		b.ReportMetric(float64(extracted)/elapsed.Seconds(), "files/s")
	})
}
