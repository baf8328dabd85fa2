package jsbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"sccg/evaluate/sandbox"
	"sccg/lang"
)

// Options configure a Runner.
type Options struct {
	// Workers is how many worker processes run completions at once; default
	// GOMAXPROCS.
	Workers int
	// Timeout bounds one completion's wall-clock time in its runtime; default 5s.
	// A worker that has not answered a second after it is killed.
	Timeout time.Duration
	// MemoryMB caps a worker's address space; default 1024.
	MemoryMB int
	// Command starts a worker: a program and its arguments, which must begin with
	// WorkerArg. Default: this executable with WorkerArg (sccg itself; a test binary
	// serves through its TestMain).
	Command []string
	// Dialect is the dialect Run reads (lang.DialectJS, DialectTS or DialectTSX);
	// default JavaScript.
	Dialect lang.Dialect
}

func (o Options) withDefaults() (Options, error) {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.MemoryMB <= 0 {
		o.MemoryMB = 1024
	}
	if len(o.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return o, fmt.Errorf("jsbox: find this executable to run workers: %w", err)
		}
		o.Command = []string{exe, WorkerArg}
	}
	if o.Dialect == "" {
		o.Dialect = lang.DialectJS
	}
	return o, nil
}

// Runner runs JavaScript and TypeScript completions in worker processes, each
// completion in a fresh runtime, and returns what they tried to send in the same
// sandbox.Result the Python sandbox gives. It is safe for concurrent use.
type Runner struct {
	opts  Options
	slots chan struct{}
	idle  chan *worker

	// ns are the namespaces a worker gets (a user and a network namespace of its
	// own: no network interface but a loopback that is down), zero where the
	// kernel refuses them; nsWhy says why not.
	ns    uintptr
	nsWhy string

	mu       sync.Mutex
	closed   bool
	all      map[*worker]bool
	replaced int
}

// New starts one worker to check that workers can serve; the others start as
// they are needed.
func New(ctx context.Context, opts Options) (*Runner, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	r := &Runner{opts: opts, slots: make(chan struct{}, opts.Workers), idle: make(chan *worker, opts.Workers),
		all: map[*worker]bool{}, ns: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET}
	w, err := r.start()
	if err != nil {
		// the kernel may refuse unprivileged namespaces: workers go without them
		r.nsWhy, r.ns = firstLine(err.Error()), 0
		if w, err = r.start(); err != nil {
			return nil, err
		}
	}
	res, _, alive, err := r.exchange(ctx, w, job{Code: "0", TimeoutMS: int(opts.Timeout / time.Millisecond)})
	if err != nil || !alive || res.Status != sandbox.StatusOK {
		r.Close()
		if err == nil {
			err = fmt.Errorf("%s: %s", res.Status, res.Reason)
		}
		return nil, fmt.Errorf("jsbox: first worker (%s) cannot serve: %w: %s", strings.Join(opts.Command, " "), err, firstLine(res.Stderr))
	}
	r.idle <- w
	return r, nil
}

// Isolation describes how completions are kept apart.
func (r *Runner) Isolation() string {
	ns := "userns+netns"
	if r.ns == 0 {
		ns = "no namespaces: " + r.nsWhy
	}
	return fmt.Sprintf("worker processes (%s, RLIMIT_AS +%d MiB, RLIMIT_CPU per job, empty environment), a fresh goja runtime per completion", ns, r.opts.MemoryMB)
}

// Replaced is how many workers died (out of memory, crash, timeout) and were
// replaced.
func (r *Runner) Replaced() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.replaced
}

// Close ends the workers. It is safe to call twice.
func (r *Runner) Close() error {
	r.mu.Lock()
	r.closed = true
	ws := make([]*worker, 0, len(r.all))
	for w := range r.all {
		ws = append(ws, w)
	}
	r.all = map[*worker]bool{}
	r.mu.Unlock()
	for _, w := range ws {
		w.stop()
	}
	return nil
}

// Run runs code in the Runner's dialect and calls function (empty: every
// definition). A failure of the code is a Result status, never an error; the
// error is for a sandbox that cannot start a worker, or a cancelled ctx.
func (r *Runner) Run(ctx context.Context, code, function string) (sandbox.Result, error) {
	return r.RunDialect(ctx, r.opts.Dialect, code, function)
}

// RunDialect is Run for a dialect of its own.
func (r *Runner) RunDialect(ctx context.Context, d lang.Dialect, code, function string) (sandbox.Result, error) {
	res, _, err := r.run(ctx, job{Lang: string(d), Code: code, Function: function,
		TimeoutMS: int(r.opts.Timeout / time.Millisecond)})
	return res, err
}

// run takes a slot and a worker (an idle one, or a new one) and runs the job.
func (r *Runner) run(ctx context.Context, j job) (sandbox.Result, wirePhases, error) {
	empty := sandbox.Result{Requests: []sandbox.Request{}}
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return empty, wirePhases{}, ctx.Err()
	}
	defer func() { <-r.slots }()
	var w *worker
	select {
	case w = <-r.idle:
	default:
		var err error
		if w, err = r.start(); err != nil {
			return empty, wirePhases{}, err
		}
	}
	res, ph, alive, err := r.exchange(ctx, w, j)
	if alive {
		r.idle <- w // never blocks: there are no more workers than slots
	}
	return res, ph, err
}

// exchange sends the job to w and waits for its result. A worker that does not
// answer in time is killed; one that died is replaced, its job scored by how it
// died. alive says whether w answered and can take the next job.
func (r *Runner) exchange(ctx context.Context, w *worker, j job) (_ sandbox.Result, _ wirePhases, alive bool, _ error) {
	start := time.Now()
	if err := writeJob(w.stdin, j); err != nil {
		return r.retire(w, "", start), wirePhases{}, false, nil
	}
	timer := time.NewTimer(r.opts.Timeout + time.Second)
	defer timer.Stop()
	select {
	case rep, ok := <-w.replies:
		if !ok {
			return r.retire(w, "", start), wirePhases{}, false, nil
		}
		rep.Result.Duration = time.Since(start)
		if rep.Result.Requests == nil {
			rep.Result.Requests = []sandbox.Request{}
		}
		return rep.Result, rep.Phases, true, nil
	case <-timer.C:
		return r.retire(w, sandbox.StatusTimeout, start), wirePhases{}, false, nil
	case <-ctx.Done():
		return r.retire(w, sandbox.StatusKilled, start), wirePhases{}, false, ctx.Err()
	}
}

// retire kills w, waits for it and scores its current job by how it ended
// (killedBy when the runner killed it).
func (r *Runner) retire(w *worker, killedBy sandbox.Status, start time.Time) sandbox.Result {
	r.drop(w)
	r.mu.Lock()
	r.replaced++
	r.mu.Unlock()
	w.kill()
	ws := w.wait()
	res := sandbox.Result{Requests: []sandbox.Request{}, Duration: time.Since(start), Stderr: w.stderr.String()}
	res.Status, res.Reason = died(killedBy, ws, res.Stderr)
	return res
}

// died classifies a worker's death.
func died(killedBy sandbox.Status, ws syscall.WaitStatus, stderr string) (sandbox.Status, string) {
	switch killedBy {
	case sandbox.StatusTimeout:
		return sandbox.StatusTimeout, "wall-clock timeout (worker killed)"
	case sandbox.StatusKilled:
		return sandbox.StatusKilled, "run cancelled"
	}
	if strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory") {
		return sandbox.StatusOOM, "memory limit (worker died)"
	}
	switch {
	case ws.Exited() && ws.ExitStatus() == exitCPU:
		return sandbox.StatusTimeout, "CPU-time limit"
	case ws.Signaled() && ws.Signal() == syscall.SIGXCPU:
		return sandbox.StatusTimeout, "CPU-time limit"
	case ws.Signaled():
		return sandbox.StatusCrash, "worker killed by signal " + ws.Signal().String()
	case ws.Exited():
		return sandbox.StatusCrash, "worker exited with status " + strconv.Itoa(ws.ExitStatus())
	}
	return sandbox.StatusCrash, "worker lost"
}

func (r *Runner) drop(w *worker) {
	r.mu.Lock()
	delete(r.all, w)
	r.mu.Unlock()
}

// worker is one worker process.
type worker struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan reply
	stderr  *headBuffer
	once    sync.Once
	ws      syscall.WaitStatus
	waited  chan struct{}
}

// start starts a worker: an empty environment, its own process group, killed
// when the runner's thread dies, its limits set by itself before it reads a job.
func (r *Runner) start() (*worker, error) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, errors.New("jsbox: runner closed")
	}
	cmdline := append(append([]string{}, r.opts.Command...),
		"-memory-mb", strconv.Itoa(r.opts.MemoryMB),
		"-cpu-seconds", strconv.Itoa(int((r.opts.Timeout+time.Second-1)/time.Second)+1),
		"-regexp-ms", strconv.Itoa(int(r.opts.Timeout/time.Millisecond)))
	cmd := exec.Command(cmdline[0], cmdline[1:]...)
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if r.ns != 0 {
		uid, gid := os.Getuid(), os.Getgid()
		cmd.SysProcAttr.Cloneflags = r.ns
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	w := &worker{cmd: cmd, replies: make(chan reply, 1), stderr: &headBuffer{max: 8 << 10}, waited: make(chan struct{})}
	cmd.Stderr = w.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("jsbox: worker stdin: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("jsbox: worker stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("jsbox: start worker %s: %w", cmdline[0], err)
	}
	w.stdin = in
	go func() {
		rd := bufio.NewReaderSize(out, 64<<10)
		for {
			var rep reply
			if err := readFrame(rd, &rep); err != nil {
				close(w.replies)
				return
			}
			w.replies <- rep
		}
	}()
	r.mu.Lock()
	r.all[w] = true
	r.mu.Unlock()
	// Wait for the worker to be ready: its start-up (a process, the harness
	// compiled) is no completion's time.
	select {
	case rep, ok := <-w.replies:
		if ok && rep.Ready {
			return w, nil
		}
	case <-time.After(workerStartup):
	}
	r.drop(w)
	w.kill()
	w.wait()
	return nil, fmt.Errorf("jsbox: worker %s did not start: %s", cmdline[0], firstLine(w.stderr.String()))
}

// workerStartup bounds a worker's start-up.
const workerStartup = 30 * time.Second

func (w *worker) kill() {
	if w.cmd.Process != nil {
		syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		w.cmd.Process.Kill()
	}
}

// wait waits for the worker's end once and returns how it ended.
func (w *worker) wait() syscall.WaitStatus {
	w.once.Do(func() {
		w.cmd.Wait()
		if ps := w.cmd.ProcessState; ps != nil {
			w.ws, _ = ps.Sys().(syscall.WaitStatus)
		}
		close(w.waited)
	})
	<-w.waited
	return w.ws
}

// stop ends a worker: its stdin closed (it exits at the end of its jobs), killed
// if it has not within a second.
func (w *worker) stop() {
	w.stdin.Close()
	done := make(chan struct{})
	go func() {
		w.wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		w.kill()
		<-done
	}
}

// headBuffer keeps the first max bytes written to it (a Go runtime's fatal error
// says what it is on its first line).
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *headBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.b.Len(); room > 0 {
		t.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (t *headBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(t.b.String(), "?")
}
