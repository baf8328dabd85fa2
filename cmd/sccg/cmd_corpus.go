package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"sccg/mine/corpus"
)

func runCorpus(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "pack" {
		return usagef("usage: sccg corpus pack --local DIR --out FILE.parquet")
	}
	fs := e.flags("corpus pack", "--local DIR --out FILE.parquet [--max-file-bytes N] [--row-group N]")
	local := fs.String("local", "", "the `directory` of repositories to pack (as mine --local reads it)")
	out := fs.String("out", "", "the Parquet `file` to write")
	maxBytes := fs.Int64("max-file-bytes", corpus.DefaultPackMaxFileBytes, "leave out files larger than this many bytes")
	rowGroup := fs.Int("row-group", 1024, "rows per Parquet row group")
	pos, err := e.parse(fs, args[1:])
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usagef("no arguments expected, got %q", pos)
	case *local == "" || *out == "":
		return usagef("--local DIR and --out FILE.parquet are required")
	case *maxBytes <= 0 || *rowGroup <= 0:
		return usagef("--max-file-bytes and --row-group must be positive")
	}
	if info, err := os.Stat(*local); err != nil || !info.IsDir() {
		return usagef("--local %s is not a directory", *local)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	tmp := *out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	stats, err := corpus.Pack(ctx, *local, f, corpus.PackOptions{MaxFileBytes: *maxBytes, RowGroupRows: *rowGroup})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, *out)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if e.json {
		return e.printJSON(stats)
	}
	fmt.Fprintf(e.stdout, "packed %d repositories: %d files (%d bytes) into %s; %d left out (over --max-file-bytes or unreadable)\n",
		stats.Repos, stats.Rows, stats.Bytes, *out, stats.Skipped)
	fmt.Fprintf(e.stdout, "line dates (git blame at each repository's commit, column %s): %d files dated%s\n",
		corpus.ColLineDates, stats.LineDates.Dated, undatedText(stats.LineDates))
	return nil
}
