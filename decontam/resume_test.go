package decontam_test

import (
	"context"
	"errors"
	"testing"

	"sccg/align"
	"sccg/decontam"
	"sccg/internal/storetest"
	"sccg/store"
)

// cancelAfter is a progress counter that cancels the run after n batches.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) SetTotal(int64) {}
func (c *cancelAfter) Done()          {}
func (c *cancelAfter) Add(int64) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
}

// TestStagesResumeAfterKill interrupts align and decontam after their first batch,
// runs them again, and compares the store with an uninterrupted run; a third run
// must change nothing.
func TestStagesResumeAfterKill(t *testing.T) {
	ctx := context.Background()
	tables := []string{"alignments", "dedup", "kept", "decisions", "work_units"}
	straight := benchStore(t, 60, 9)
	if _, err := align.Run(ctx, straight, align.Options{Batch: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := decontam.Run(ctx, straight, decontam.Options{Batch: 10}); err != nil {
		t.Fatal(err)
	}
	want, err := straight.Dump(ctx, tables...)
	if err != nil {
		t.Fatal(err)
	}

	resumed := benchStore(t, 60, 9)
	kill := func(run func(context.Context, *cancelAfter) error) {
		t.Helper()
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if err := run(cctx, &cancelAfter{n: 1, cancel: cancel}); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run returned %v, want context.Canceled", err)
		}
	}
	kill(func(c context.Context, p *cancelAfter) error {
		_, err := align.Run(c, resumed, align.Options{Batch: 10, Progress: p})
		return err
	})
	if n := countRows(t, resumed, "align"); n != 10 {
		t.Errorf("after the kill %d align units are done, want the first batch of 10", n)
	}
	if _, err := align.Run(ctx, resumed, align.Options{Batch: 10}); err != nil {
		t.Fatal(err)
	}
	kill(func(c context.Context, p *cancelAfter) error {
		_, err := decontam.Run(c, resumed, decontam.Options{Batch: 10, Progress: p})
		return err
	})
	res, err := decontam.Run(ctx, resumed, decontam.Options{Batch: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reused == 0 {
		t.Errorf("the resumed decontam reused no redaction from the killed run")
	}
	got, err := resumed.Dump(ctx, tables...)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("resumed store differs from an uninterrupted run:\n%s", firstDiff(want, got))
	}

	if _, err := align.Run(ctx, resumed, align.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := decontam.Run(ctx, resumed, decontam.Options{}); err != nil {
		t.Fatal(err)
	}
	again := storetest.MustDump(t, resumed, tables...)
	if again != got {
		t.Errorf("a rerun changed the store:\n%s", firstDiff(got, again))
	}
}

func countRows(t *testing.T, s *store.Store, stage string) int {
	t.Helper()
	done, err := s.DoneUnits(context.Background(), stage)
	if err != nil {
		t.Fatal(err)
	}
	return len(done)
}

func firstDiff(a, b string) string {
	al, bl := splitLines(a), splitLines(b)
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "- " + x + "\n+ " + y
		}
	}
	return ""
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
