package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Where a run took place (Result.Placement).
const (
	PlacedBatch = "batch" // in a batch child, verified clean afterwards
	PlacedOwn   = "own"   // in a child of its own
)

// Bounds of a batch child: how many jobs it runs (adaptive: the first size, then
// doubled after each batch that ended clean at its size, up to the most, and
// halved after one that did not, down to the least), and its CPU time, age and
// memory, past which it runs no further job. A batch child's start costs about
// as much as 30 batched jobs (most of it pages copied after the fork), so the
// first batches are not small.
const (
	batchFirst  = 256
	batchLeast  = 64
	batchMost   = 1024
	batchCPU    = 10 * time.Second
	batchAge    = 2 * time.Minute
	batchRSSKiB = 256 << 10
	// batchJobMax is the largest job a batch takes (one message on its socket).
	batchJobMax = 96 << 10
)

// BatchStats count what batching did over a runner's life.
type BatchStats struct {
	Batched  int64 `json:"batched"`  // runs that took place in a batch
	Own      int64 `json:"own"`      // runs in a child of their own (batching on)
	NotTame  int64 `json:"not_tame"` // of them: code a batch does not take
	Ended    int64 `json:"ended"`    // batches ended by a failed verification (the culprit ran again on its own)
	Failed   int64 `json:"failed"`   // batched runs that did not finish (timeout, crash, memory) and ran again on their own
	Children int64 `json:"children"` // batch children started
	// Culprits are why the first batches that ended did (at most 20).
	Culprits []string `json:"culprits,omitempty"`
	// Failures are why the first batched runs that failed did (at most 20).
	Failures []string `json:"failures,omitempty"`
	// OwnWhy counts the runs in a child of their own by why they did not stay in
	// a batch: what made the code not tame ("imports pickle"), "batch ended",
	// "batch failed", "too large for a batch", "no batch child".
	OwnWhy map[string]int64 `json:"own_why,omitempty"`
	// FullCompare counts the batch children that compared every shared
	// namespace after each job, by why they could not read dict version tags
	// (which let a child compare only the namespaces a job changed): slower, as
	// sound.
	FullCompare map[string]int64 `json:"full_compare,omitempty"`
	// ServersDropped counts the fork servers of batches dropped because they did
	// not report a batch child's end (stopped, or the child stuck in the kernel).
	ServersDropped int64 `json:"servers_dropped,omitempty"`
	// ServersRetired counts the fork servers (of either kind) that took no further
	// job because a child left its scratch directory in a state it could not be
	// emptied from; another server took their next jobs.
	ServersRetired int64 `json:"servers_retired,omitempty"`
}

// batchPool holds the idle batch children and the counts.
type batchPool struct {
	mu    sync.Mutex
	idle  []*batchChild
	all   map[*batchChild]bool
	size  int // the size of the next batch child
	stats BatchStats
}

// batchChild is a running batch: a child forked by a fork server, taking one job
// at a time on its socket and reporting on its pipe. The goroutine that runs a job
// reads the job's report itself: no goroutine, channel or timer stands between a
// report line and the run that waits for it.
type batchChild struct {
	ch     child
	sock   *os.File      // our end of the job socket (SOCK_SEQPACKET)
	pr     *os.File      // the report pipe, on Go's poller
	br     *bufio.Reader // reads pr, at most what a batch of its size may report
	mem    *os.File      // its stderr, emptied by the child before each job
	waited chan exit
	exited *exit // set once waited has delivered
	max    int
	jobs   int
	cpu    time.Duration
	born   time.Time
	// stale: a cancellation came as its last job ended and may yet cut the
	// next job's reading short; it takes no further job.
	stale bool
}

// BatchStats are the runner's batching counts so far.
func (r *Runner) BatchStats() BatchStats {
	r.batches.mu.Lock()
	defer r.batches.mu.Unlock()
	s := r.batches.stats
	s.Culprits = append([]string(nil), s.Culprits...)
	s.Failures = append([]string(nil), s.Failures...)
	s.OwnWhy = maps.Clone(s.OwnWhy)
	s.FullCompare = maps.Clone(s.FullCompare)
	return s
}

func (r *Runner) count(f func(s *BatchStats)) {
	r.batches.mu.Lock()
	defer r.batches.mu.Unlock()
	f(&r.batches.stats)
}

// runBatched runs code in a batch child when the batch takes it and vouches for
// it, else in a child of its own.
func (r *Runner) runBatched(ctx context.Context, code, function string) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{Requests: []Request{}}, err // as runOwn: no child started for a cancelled run
	}
	if len(code)+len(function) > batchJobMax {
		return r.own(ctx, code, function, "too large for a batch")
	}
	b, err := r.getBatch()
	if err != nil {
		return r.own(ctx, code, function, "no batch child: "+err.Error())
	}
	res, verdict := r.runInBatch(ctx, b, code, function)
	switch {
	case verdict == "":
		r.count(func(s *BatchStats) { s.Batched++ })
		r.putBatch(b, true)
		res.Placement = PlacedBatch
		return res, nil
	case verdict == "cancelled":
		r.retireBatch(b, false)
		return res, ctx.Err()
	case strings.HasPrefix(verdict, "not tame"):
		r.count(func(s *BatchStats) { s.NotTame++ })
		r.putBatch(b, true)
	case strings.HasPrefix(verdict, "batch ended"):
		r.count(func(s *BatchStats) {
			s.Ended++
			if len(s.Culprits) < 20 {
				s.Culprits = append(s.Culprits, strings.TrimPrefix(verdict, "batch ended: "))
			}
		})
		r.retireBatch(b, false)
	default:
		r.count(func(s *BatchStats) {
			s.Failed++
			if len(s.Failures) < 20 {
				s.Failures = append(s.Failures, strings.TrimPrefix(verdict, "batch failed: "))
			}
		})
		r.retireBatch(b, false)
	}
	return r.own(ctx, code, function, verdict)
}

// ownKey is the reason a run left its batch, as OwnWhy counts it: what made the
// code not tame, else the kind of verdict without its details (Culprits and
// Failures keep those).
func ownKey(why string) string {
	if r, ok := strings.CutPrefix(why, "not tame: "); ok {
		return r
	}
	k, _, _ := strings.Cut(why, ":")
	return k
}

// own runs code in a child of its own, saying why it did not run in a batch.
func (r *Runner) own(ctx context.Context, code, function, why string) (Result, error) {
	r.count(func(s *BatchStats) {
		s.Own++
		s.OwnWhy = mapInc(s.OwnWhy, ownKey(why))
	})
	res, err := r.runOwn(ctx, code, function)
	res.Placement = PlacedOwn + ": " + why
	return res, err
}

// runInBatch sends one job to batch child b and collects its report. verdict is
// "" when the run counts; else why not ("not tame: ...", "batch ended: ...",
// "batch failed: ...", or "cancelled").
func (r *Runner) runInBatch(ctx context.Context, b *batchChild, code, function string) (res Result, verdict string) {
	start := time.Now()
	res = Result{Requests: []Request{}}
	nonce := newNonce()
	function = oneLine.Replace(function)
	// The job's stderr starts empty: the child, armed, may not cut a descriptor.
	if err := truncate(b.mem); err != nil {
		return res, "batch failed: empty stderr: " + err.Error()
	}
	if err := sendJob(b.sock, []byte(nonce+"\n"+function+"\n"+code)); err != nil {
		return res, "batch failed: send job: " + err.Error()
	}
	b.jobs++
	// The wall-clock limit and a cancellation both end the reading: the first as
	// its deadline, the second by moving the deadline to the past.
	if err := b.pr.SetReadDeadline(start.Add(r.limits.Timeout)); err != nil {
		b.ch.kill()
		return res, "batch failed: " + err.Error()
	}
	stop := context.AfterFunc(ctx, func() { b.pr.SetReadDeadline(time.Unix(1, 0)) })
	defer func() {
		if !stop() {
			b.stale = true
		}
	}()
	rep := &report{nonce: nonce, res: &res}
	var wild string
	for {
		line, err := b.line()
		if err != nil {
			return res, b.lost(ctx, err, &res)
		}
		kind, body, ok := parseLine(line, nonce)
		if !ok {
			// The harness writes the lines of one job before it takes the next;
			// a line of another job now is no line of the harness's.
			return res, "batch ended: a report line out of turn"
		}
		switch kind {
		case "wild":
			var w struct {
				Why string `json:"why"`
			}
			json.Unmarshal(body, &w)
			wild = w.Why
		case "verify":
			var v struct {
				Clean bool   `json:"clean"`
				Why   string `json:"why"`
				CPUUS int64  `json:"cpu_us"`
				RSSKB int64  `json:"rss_kb"`
			}
			if err := json.Unmarshal(body, &v); err != nil {
				return res, "batch failed: unreadable verification"
			}
			cpu := time.Duration(v.CPUUS) * time.Microsecond
			b.cpu += cpu
			if v.RSSKB > batchRSSKiB {
				b.max = b.jobs // full: no further job
			}
			switch {
			case !v.Clean:
				return res, "batch ended: " + v.Why
			case wild != "":
				return res, "not tame: " + wild
			case !rep.facts || !rep.ended:
				return res, "batch failed: no facts or end report"
			}
			res.Status, res.Reason = classify("", rep, exit{})
			if res.Status != StatusOK && res.Status != StatusError {
				return res, "batch failed: " + string(res.Status)
			}
			res.Duration = time.Since(start)
			// a batch child has no start-up of its own: the job's setup is all
			// of it but the code
			res.CPU.Total, res.CPU.Setup = cpu, max(0, cpu-res.CPU.Code)
			res.Stderr = stderrOf(b.mem)
			return res, ""
		default:
			rep.add(line)
		}
	}
}

// line is batch child b's next report line, valid until the next read; a line
// longer than the reader's buffer is skipped.
func (b *batchChild) line() ([]byte, error) {
	for {
		line, err := b.br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return line, err
		}
		for err == bufio.ErrBufferFull {
			_, err = b.br.ReadSlice('\n')
		}
		if err != nil {
			return nil, err
		}
	}
}

// lost says why batch child b's report ended before its job did, from err, the
// error that ended the reading: the run was cancelled, reached its wall-clock
// limit, or the child exited (or closed its report pipe).
func (b *batchChild) lost(ctx context.Context, err error, res *Result) string {
	switch {
	case ctx.Err() != nil:
		b.ch.kill()
		res.Status, res.Reason = StatusKilled, "run cancelled"
		return "cancelled"
	case errors.Is(err, os.ErrDeadlineExceeded):
		b.ch.kill()
		return "batch failed: timeout"
	}
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	select {
	case ex := <-b.waited:
		b.exited = &ex
		if ex.ws.Signaled() && ex.ws.Signal() == syscall.SIGPROF {
			return "batch failed: CPU-time limit"
		}
		return "batch failed: the batch child exited"
	case <-timer.C:
		b.ch.kill()
		return "batch failed: the batch child closed its report channel"
	}
}

// stderrOf is the start (8 KiB) of what a child wrote to memory file mem.
func stderrOf(mem *os.File) string {
	var eb [8 << 10]byte
	n := readAt(mem, eb[:], 0)
	return strings.ToValidUTF8(string(eb[:n]), "?")
}

// getBatch takes an idle batch child, or starts one.
func (r *Runner) getBatch() (*batchChild, error) {
	p := &r.batches
	p.mu.Lock()
	for n := len(p.idle); n > 0; n = len(p.idle) {
		b := p.idle[n-1]
		p.idle = p.idle[:n-1]
		if time.Since(b.born) < batchAge {
			p.mu.Unlock()
			return b, nil
		}
		// grown old while idle: it takes no further job
		p.mu.Unlock()
		r.retireBatch(b, true)
		p.mu.Lock()
	}
	size := p.size
	if size == 0 {
		size = batchFirst
	}
	p.mu.Unlock()
	return r.startBatch(size)
}

// putBatch gives b back to the pool, or ends it once it is full, old or heavy;
// clean says the last job left it as it was.
func (r *Runner) putBatch(b *batchChild, clean bool) {
	if b.stale || b.jobs >= b.max || b.cpu >= batchCPU || time.Since(b.born) >= batchAge {
		r.retireBatch(b, clean)
		return
	}
	r.batches.mu.Lock()
	defer r.batches.mu.Unlock()
	if r.batches.all[b] {
		r.batches.idle = append(r.batches.idle, b)
	}
}

// retireBatch ends batch child b and adapts the size of the next: doubled when
// b ended clean at its size, halved when it did not end clean.
func (r *Runner) retireBatch(b *batchChild, clean bool) {
	p := &r.batches
	p.mu.Lock()
	delete(p.all, b)
	switch {
	case !clean:
		p.size = max(batchLeast, b.max/2)
	case b.jobs >= b.max:
		// a child ended full by its memory may have run few jobs: not below the least
		p.size = min(batchMost, max(batchLeast, b.max*2))
	}
	p.mu.Unlock()
	go func() {
		if b.end() {
			r.count(func(s *BatchStats) { s.ServersDropped++ })
		}
	}()
}

// end closes the job socket (the child exits at its end), waits for the child
// (killing it after a second, and dropping its fork server when the server
// does not report the end within serverGrace) and closes the rest; dropped says
// whether the server was dropped.
func (b *batchChild) end() (dropped bool) {
	b.sock.Close()
	if b.exited == nil {
		select {
		case <-b.waited:
		case <-time.After(time.Second):
			b.ch.kill()
			select {
			case <-b.waited:
			case <-time.After(serverGrace):
				if b.ch.abandon != nil {
					b.ch.abandon()
					dropped = true
				}
				<-b.waited
			}
		}
	}
	b.ch.kill()
	b.pr.Close()
	b.mem.Close()
	return dropped
}

func (r *Runner) closeBatches() {
	p := &r.batches
	p.mu.Lock()
	all := p.all
	p.all, p.idle = nil, nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for b := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.end()
		}()
	}
	wg.Wait()
}

// startBatch has a fork server start a batch child of size jobs at most.
func (r *Runner) startBatch(size int) (_ *batchChild, err error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: batch report pipe: %w", err)
	}
	defer pw.Close()
	rd, err := newPollReader(pr)
	if err != nil {
		pr.Close()
		return nil, fmt.Errorf("sandbox: batch report pipe: %w", err)
	}
	mem, err := memfd("sccg-batch")
	if err != nil {
		pr.Close()
		return nil, fmt.Errorf("sandbox: batch stderr: %w", err)
	}
	// Our end stays blocking, and so off Go's poller, where each job the child
	// takes would wake the poller to say the socket is writable again; sending
	// does not wait (sendJob).
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		pr.Close()
		mem.Close()
		return nil, fmt.Errorf("sandbox: batch job socket: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "batch-jobs")
	theirs := os.NewFile(uintptr(fds[1]), "batch-jobs")
	defer theirs.Close()
	l := r.limits
	// The CPU limit covers the whole batch; each job's own CPU (a timer in the
	// child) and wall-clock limits still hold, and a job that reaches one runs
	// again in a child of its own.
	cpu := l.CPUSeconds + int(batchCPU/time.Second) + 1
	msg := strings.Join([]string{"batch", strconv.Itoa(l.CPUSeconds), strconv.Itoa(cpu), strconv.Itoa(l.MemoryMB << 20),
		strconv.Itoa(l.FileSizeMB << 20), strconv.Itoa(l.OpenFiles), strconv.Itoa(l.Processes)}, "\t")
	ch, err := r.startWarm(true, msg, pw, theirs, mem)
	if err != nil {
		ours.Close()
		pr.Close()
		mem.Close()
		return nil, err
	}
	b := &batchChild{ch: ch, sock: ours, pr: pr, br: bufio.NewReaderSize(io.LimitReader(rd, int64(size+1)*maxReport), 64<<10),
		mem: mem, waited: make(chan exit, 1), max: size, born: time.Now()}
	go func() {
		ws, cpu, err := ch.wait()
		b.waited <- exit{ws, cpu, err}
	}()
	// Loading the modules a batch shares can take a while on a busy machine; wait
	// for it here (no code has run yet) so a job's own deadline only covers the job.
	full, err := b.ready()
	if err != nil {
		r.batches.mu.Lock()
		r.batches.all = mapWith(r.batches.all, b)
		r.batches.mu.Unlock()
		r.retireBatch(b, false)
		return nil, err
	}
	r.batches.mu.Lock()
	r.batches.all = mapWith(r.batches.all, b)
	r.batches.stats.Children++
	if full != "" {
		r.batches.stats.FullCompare = mapInc(r.batches.stats.FullCompare, full)
	}
	r.batches.mu.Unlock()
	return b, nil
}

func mapWith(m map[*batchChild]bool, b *batchChild) map[*batchChild]bool {
	if m == nil {
		m = map[*batchChild]bool{}
	}
	m[b] = true
	return m
}

// ready waits for the batch child's first line, which says it is ready and, when
// it compares every shared namespace after each job, why (full).
func (b *batchChild) ready() (full string, err error) {
	if err := b.pr.SetReadDeadline(time.Now().Add(2 * time.Minute)); err != nil {
		return "", fmt.Errorf("sandbox: batch child: %w", err)
	}
	line, err := b.line()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "", fmt.Errorf("sandbox: batch child not ready after 2 minutes")
	case err != nil:
		return "", fmt.Errorf("sandbox: batch child exited before it was ready")
	}
	kind, body, ok := parseLine(line, "")
	if !ok || kind != "ready" {
		return "", fmt.Errorf("sandbox: batch child did not start: %q", line)
	}
	var r struct {
		Full string `json:"full_compare"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return "", fmt.Errorf("sandbox: batch child's ready line: %w", err)
	}
	return r.Full, nil
}

// mapInc is m with m[k] one more, m made when nil.
func mapInc(m map[string]int64, k string) map[string]int64 {
	if m == nil {
		m = map[string]int64{}
	}
	m[k]++
	return m
}
