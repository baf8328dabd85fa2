package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestLinesReportsRateAndETA(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	var buf bytes.Buffer
	r := &Reporter{W: &buf, Mode: Lines, Now: clk.now, Interval: 10 * time.Second}
	c := r.Start("crawl", 100)
	clk.t = clk.t.Add(5 * time.Second)
	c.Add(10) // under the interval: silent
	if buf.Len() != 0 {
		t.Fatalf("printed before the interval: %q", buf.String())
	}
	clk.t = clk.t.Add(5 * time.Second)
	c.Add(10)
	got := buf.String()
	want := "crawl 20/100 ( 20%) 2.0/s ETA 40s\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	c.Done()
	c.Done()
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Fatalf("got %d lines, want 2 (Done prints once): %q", n, buf.String())
	}
}

func TestBarRedrawsInPlace(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	var buf bytes.Buffer
	r := &Reporter{W: &buf, Mode: Bar, Now: clk.now}
	c := r.Start("mine", 4)
	clk.t = clk.t.Add(time.Second)
	c.Add(2)
	if !strings.HasPrefix(buf.String(), "\r\x1b[K") || !strings.Contains(buf.String(), "[============            ] 2/4") {
		t.Fatalf("unexpected bar: %q", buf.String())
	}
	if strings.Contains(buf.String(), "\n") {
		t.Fatalf("bar must not end lines until done: %q", buf.String())
	}
}

func TestOffAndNilPrintNothing(t *testing.T) {
	var buf bytes.Buffer
	(&Reporter{W: &buf, Mode: Off}).Start("x", 1).Add(1)
	var nilRep *Reporter
	nilRep.Start("x", 1).Done()
	if buf.Len() != 0 {
		t.Fatalf("printed %q", buf.String())
	}
}

// The ETA is measured from the first item done, so a long setup before it (a
// sandbox starting, the gold runs) does not inflate it.
func TestETAIgnoresTheSetup(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	var buf bytes.Buffer
	r := &Reporter{W: &buf, Mode: Lines, Now: clk.now, Interval: time.Second}
	c := r.Start("eval", 300)
	clk.t = clk.t.Add(60 * time.Second) // setup
	c.Add(10)
	buf.Reset()
	clk.t = clk.t.Add(10 * time.Second) // then 10 a second
	c.Add(100)
	if got := buf.String(); !strings.Contains(got, "ETA 19s") {
		t.Fatalf("got %q, want an ETA of 19s (190 left at 10/s)", got)
	}
}
