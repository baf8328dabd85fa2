// Package progress reports how far a long stage has got: a redrawn bar on a terminal,
// a plain line every few seconds otherwise, nothing when switched off. It always
// writes to the writer it is given (stderr in the CLI), never to stdout.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Counter is what a stage reports its progress to. Stages accept one in their
// options; Nop is the default.
type Counter interface {
	// SetTotal sets (or corrects) how many units the task has; 0 means unknown.
	SetTotal(n int64)
	// Add records n more units done.
	Add(n int64)
	// Done prints the final state; further calls do nothing.
	Done()
}

// Nop is a Counter that reports nothing.
var Nop Counter = nop{}

type nop struct{}

func (nop) SetTotal(int64) {}
func (nop) Add(int64)      {}
func (nop) Done()          {}

// Mode chooses how a Bar renders.
type Mode int

const (
	// Off prints nothing.
	Off Mode = iota
	// Bar redraws one line in place (for terminals).
	Bar
	// Lines prints a plain line at most once per Interval (for logs and pipes).
	Lines
)

// Reporter makes Counters that share one writer, mode and clock.
type Reporter struct {
	W        io.Writer
	Mode     Mode
	Now      func() time.Time
	Interval time.Duration // between plain lines; default 10 s
}

// Start returns a Counter for one named task.
func (r *Reporter) Start(name string, total int64) Counter {
	if r == nil || r.Mode == Off || r.W == nil {
		return Nop
	}
	now := r.Now
	if now == nil {
		now = time.Now
	}
	iv := r.Interval
	if iv == 0 {
		iv = 10 * time.Second
		if r.Mode == Bar {
			iv = 100 * time.Millisecond
		}
	}
	t := now()
	return &task{w: r.W, mode: r.Mode, now: now, interval: iv, name: name, total: total, start: t, last: t}
}

type task struct {
	mu       sync.Mutex
	w        io.Writer
	mode     Mode
	now      func() time.Time
	interval time.Duration
	name     string
	total    int64
	done     int64
	start    time.Time
	last     time.Time
	finished bool
	// The first Add and what was done by then: the rate behind an ETA is
	// measured from it, so the setup before the first item (starting a sandbox,
	// the gold runs) does not make the ETA of a 30 s step an hour.
	firstAt   time.Time
	firstDone int64
}

func (t *task) SetTotal(n int64) {
	t.mu.Lock()
	t.total = n
	t.mu.Unlock()
}

func (t *task) Add(n int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done += n
	if t.firstAt.IsZero() {
		t.firstAt, t.firstDone = t.now(), t.done
	}
	if now := t.now(); now.Sub(t.last) >= t.interval && !t.finished {
		t.last = now
		t.render(now, false)
	}
}

func (t *task) Done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.finished {
		return
	}
	t.finished = true
	t.render(t.now(), true)
}

// render writes the current state; the caller holds t.mu.
func (t *task) render(now time.Time, final bool) {
	el := now.Sub(t.start)
	rate := 0.0
	if el > 0 {
		rate = float64(t.done) / el.Seconds()
	}
	var b strings.Builder
	if t.mode == Bar {
		b.WriteString("\r\x1b[K")
	}
	fmt.Fprintf(&b, "%s ", t.name)
	if t.total > 0 {
		frac := min(float64(t.done)/float64(t.total), 1)
		if t.mode == Bar {
			const width = 24
			n := int(frac * width)
			b.WriteString("[" + strings.Repeat("=", n) + strings.Repeat(" ", width-n) + "] ")
		}
		fmt.Fprintf(&b, "%d/%d (%3.0f%%)", t.done, t.total, frac*100)
	} else {
		fmt.Fprintf(&b, "%d", t.done)
	}
	fmt.Fprintf(&b, " %.1f/s", rate)
	switch {
	case final:
		fmt.Fprintf(&b, " in %s", el.Round(time.Millisecond))
	case t.total > 0 && t.done < t.total && !t.firstAt.IsZero() && t.done > t.firstDone && now.After(t.firstAt):
		since := float64(t.done-t.firstDone) / now.Sub(t.firstAt).Seconds()
		eta := time.Duration(float64(t.total-t.done) / since * float64(time.Second))
		fmt.Fprintf(&b, " ETA %s", eta.Round(time.Second))
	}
	if t.mode == Lines || final {
		b.WriteByte('\n')
	}
	io.WriteString(t.w, b.String())
}
