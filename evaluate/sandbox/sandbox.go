// Package sandbox runs untrusted Python code in a fresh, limited interpreter process
// with recorders in place of the HTTP client libraries, and returns the requests the
// code tried to send. It is the virtual executor of the evaluator.
//
// Every run is a process of its own running an embedded harness: by default a child
// forked from a warm fork server (an interpreter in isolated mode, -I -S, that has
// loaded the harness and common modules and never runs generated code, so nothing a
// completion does can reach the next one), or with Options.Exec a new exec of the
// interpreter. Either way it gets its own process group (killed whole on timeout),
// a scratch directory emptied or removed afterwards, an environment with nothing but
// what Python needs, resource limits set by the harness before the code runs, and an
// audit hook that blocks sockets, process creation, signals, tracing, tampering with
// the harness and writes outside the scratch directory. Where the kernel allows it,
// it also runs in user and network namespaces of its own: a fork server and all its
// children share one set (user, network, IPC, UTS: no network interface but a
// loopback that is down), made once when the server starts; an exec'd run gets new
// user and network namespaces. No process that runs generated code ever has ctypes
// loaded, so the audit hook is the one way to a system call. The job reaches the
// child in a memory file, which then holds its stderr: a run touches no file of the
// evaluator's. (Not a PID namespace: the interpreter would be its init and ignore
// the signals that end a crashed or over-budget process; process creation is blocked
// by the harness instead.)
package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// harnessFS is the harness package (harness/__main__.py is its entry point); its
// tests under harness/tests stay out.
//
//go:embed harness/*.py
var harnessFS embed.FS

// Status is how a run ended.
type Status string

// The run statuses.
const (
	StatusOK      Status = "ok"      // the code ran to the end
	StatusError   Status = "error"   // the code raised, or did not compile
	StatusTimeout Status = "timeout" // wall-clock or CPU-time limit
	StatusOOM     Status = "oom"     // the memory limit
	StatusCrash   Status = "crash"   // the interpreter died (signal, early exit, lost channel)
	StatusKilled  Status = "killed"  // killed from outside, or the run was cancelled
)

// Request is one HTTP request the code tried to send, as the recorders saw it.
type Request struct {
	Lib       string          `json:"lib"`
	Method    string          `json:"method"`
	URL       string          `json:"url"`
	Params    json.RawMessage `json:"params,omitempty"`     // list of keys
	ParamsRaw string          `json:"params_raw,omitempty"` // params given as a string
	// ParamValues are the query pairs params= becomes (list values repeated, None
	// left out), values of secret-looking names redacted.
	ParamValues [][2]string       `json:"param_values,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"` // secret-looking values redacted
	JSON        json.RawMessage   `json:"json,omitempty"`    // keys of a JSON body, or a short string
	Data        json.RawMessage   `json:"data,omitempty"`    // keys of a form body, or a short string
	Files       json.RawMessage   `json:"files,omitempty"`
}

// Facts are what the harness learned from the code's syntax tree.
type Facts struct {
	Syntax         bool     `json:"syntax"`
	Error          string   `json:"error,omitempty"`
	Imports        []string `json:"imports,omitempty"`
	HasTry         bool     `json:"has_try"`
	HasStatusCheck bool     `json:"has_status_check"`
	Defs           []string `json:"defs,omitempty"`
	// Free are the global names the code reads but never defines, imports or
	// assigns (builtins aside): what it needs from outside itself.
	Free []string `json:"free,omitempty"`
}

// Result is the outcome of one run.
type Result struct {
	Status   Status    `json:"status"`
	Reason   string    `json:"reason,omitempty"`
	Facts    Facts     `json:"facts"`
	Requests []Request `json:"requests"`
	Stubbed  []string  `json:"stubbed,omitempty"`
	// Undefined are the global names the code used without defining or importing
	// them (each became a permissive stub).
	Undefined []string `json:"undefined,omitempty"`
	// Handed is set when the requests came from a function the code handed to a
	// stub (a route handler, an effect, a listener, a lifecycle hook), called as
	// its framework would, rather than from the function asked for (JavaScript).
	Handed   bool          `json:"handed,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	CPU      CPU           `json:"cpu"`
	Stderr   string        `json:"stderr,omitempty"`
	// Placement is where the run took place: PlacedBatch, or PlacedOwn and, when
	// batching was on, why not in a batch ("not tame: imports subprocess",
	// "batch ended: sys.modules: ...", "batch failed: timeout").
	Placement string `json:"placement,omitempty"`
}

// CPU is where a run's CPU time went (user and system), as far as it was measured:
// zero where it was not (the code killed its process before the end report).
type CPU struct {
	// Setup is the child's time from its start to the moment the guard is armed:
	// taking the job, compiling the code and its facts, the fakes and the limits
	// (for a forked child, the copied pages its work touches; for an exec'd one, the
	// interpreter's start-up too).
	Setup time.Duration `json:"setup_ns"`
	// Code is from then to the end report: the code's statements and the calls of
	// its functions with dummy arguments.
	Code time.Duration `json:"code_ns"`
	// Total is the child's whole time; Total − Setup − Code is its exit (tearing
	// down its address space).
	Total time.Duration `json:"total_ns"`
}

// Limits bound one run.
type Limits struct {
	Timeout    time.Duration // wall clock; default 5s
	CPUSeconds int           // default: the timeout rounded up
	MemoryMB   int           // address space; default 1024
	FileSizeMB int           // default 16
	OpenFiles  int           // default 64
	Processes  int           // RLIMIT_NPROC; default 64
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = 5 * time.Second
	}
	if l.CPUSeconds <= 0 {
		l.CPUSeconds = int((l.Timeout + time.Second - 1) / time.Second)
	}
	if l.MemoryMB <= 0 {
		l.MemoryMB = 1024
	}
	if l.FileSizeMB <= 0 {
		l.FileSizeMB = 16
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = 64
	}
	if l.Processes <= 0 {
		l.Processes = 64
	}
	return l
}

// Options configure a Runner.
type Options struct {
	Python     string // interpreter; default: python3 on PATH, resolved to sys.executable
	ScratchDir string // parent of the per-run scratch directories; default os.TempDir()
	Limits     Limits
	// NoNamespaces turns the namespace isolation off even where the kernel allows it.
	NoNamespaces bool
	// Exec starts a fresh interpreter (exec) for every job. By default (false) each
	// job runs in a child forked from a warm fork server: an interpreter that has
	// loaded the harness and common modules and never runs generated code, so no
	// earlier completion can have changed it; the server and its children share
	// user, network, IPC and UTS namespaces of their own (where the kernel allows
	// them), and each child gets the same limits and audit hook as an exec'd run —
	// at about a fifth of the CPU.
	Exec bool
	// NoBatch runs every job of a fork server in a child of its own. By default tame
	// code (see harness/tame.py) runs in batches, several jobs one after another in
	// one forked child that verifies after each that nothing shared changed.
	NoBatch bool
}

// Runner runs code in the sandbox. It is safe for concurrent use.
type Runner struct {
	python    string
	harness   string // path of the harness entry point, compiled when it could be
	dir       string // private directory holding the harness and the scratch dirs
	limits    Limits
	attr      *syscall.SysProcAttr
	isolation string
	stale     int // work directories of dead runs removed by New
	once      sync.Once
	warm      bool
	pool      zygotes
	batching  bool
	batches   batchPool
}

// New resolves the interpreter once, writes the harness and detects which namespace
// isolation the kernel grants.
func New(ctx context.Context, opts Options) (*Runner, error) {
	py, err := resolvePython(ctx, opts.Python)
	if err != nil {
		return nil, err
	}
	stale, err := RemoveStale(opts.ScratchDir)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opts.ScratchDir, workPattern())
	if err != nil {
		return nil, fmt.Errorf("sandbox: create work directory: %w", err)
	}
	// absolute and clean: the harness's guard refuses a write through a path with ".." in it
	abs, err := filepath.Abs(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("sandbox: work directory: %w", err)
	}
	dir = abs
	h, err := writeHarness(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// Compile the harness once: starting from bytecode saves ~18 ms of CPU per run.
	if pyc, err := compileHarness(ctx, py, h); err == nil {
		h = pyc
	}
	r := &Runner{python: py, harness: h, dir: dir, limits: opts.Limits.withDefaults(), warm: !opts.Exec,
		batching: !opts.Exec && !opts.NoBatch, stale: stale}
	r.pool.cond.L = &r.pool.mu
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET)
	if r.warm {
		flags |= syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	}
	r.attr, r.isolation = detectIsolation(ctx, py, dir, flags, opts.NoNamespaces)
	if r.warm {
		r.isolation = "fork-server+" + r.isolation
		// Start the first fork server now (of batch children, when batching): a
		// harness that cannot serve fails New.
		if _, err := r.startZygote(r.batching); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// Stale is how many work directories left by killed runs New removed.
func (r *Runner) Stale() int { return r.stale }

// Close removes the runner's files. It is safe to call twice.
func (r *Runner) Close() error {
	var err error
	r.once.Do(func() {
		r.closeBatches()
		r.closeZygotes()
		err = os.RemoveAll(r.dir)
	})
	return err
}

// Python is the resolved interpreter.
func (r *Runner) Python() string { return r.python }

// Isolation says which isolation runs get, e.g. "userns+netns+rlimits+audit-hook" or
// "rlimits+audit (no namespaces: ...)".
func (r *Runner) Isolation() string { return r.isolation }

// NetworkNamespace reports whether runs are kept out of the evaluator's network
// namespace: each exec'd run in one of its own, each fork server's children in the
// server's.
func (r *Runner) NetworkNamespace() bool {
	return r.attr.Cloneflags&syscall.CLONE_NEWNET != 0
}

func resolvePython(ctx context.Context, py string) (string, error) {
	if py == "" {
		py = "python3"
	}
	path, err := exec.LookPath(py)
	if err != nil {
		return "", fmt.Errorf("sandbox: find %s: %w", py, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-c", "import sys; print(sys.executable); print(sys.version_info >= (3, 8))").Output()
	if err != nil {
		return "", fmt.Errorf("sandbox: ask %s for its executable: %w", path, err)
	}
	lines := strings.Fields(string(out))
	if len(lines) < 2 || lines[1] != "True" {
		return "", fmt.Errorf("sandbox: %s: need Python 3.8 or newer (audit hooks)", path)
	}
	if lines[0] == "" {
		return path, nil
	}
	return lines[0], nil
}

// writeHarness writes the harness package into dir/harness and returns the path
// of its entry point.
func writeHarness(dir string) (string, error) {
	files, err := fs.ReadDir(harnessFS, "harness")
	if err != nil {
		return "", fmt.Errorf("sandbox: read embedded harness: %w", err)
	}
	pkg := filepath.Join(dir, "harness")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		return "", fmt.Errorf("sandbox: write harness: %w", err)
	}
	for _, f := range files {
		b, err := harnessFS.ReadFile("harness/" + f.Name())
		if err == nil {
			err = os.WriteFile(filepath.Join(pkg, f.Name()), b, 0o444)
		}
		if err != nil {
			return "", fmt.Errorf("sandbox: write harness: %w", err)
		}
	}
	return filepath.Join(pkg, "__main__.py"), nil
}

// compileHarness has the harness (build.py) compile its package into one bundle of
// bytecode and its entry point into __main__.pyc next to the source, which it
// returns.
func compileHarness(ctx context.Context, py, src string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-B", filepath.Join(filepath.Dir(src), "build.py"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("sandbox: compile harness: %v %s", err, out)
	}
	return strings.TrimSuffix(src, ".py") + ".pyc", nil
}

func nsAttr(flags uintptr) *syscall.SysProcAttr {
	uid, gid := os.Getuid(), os.Getgid()
	return &syscall.SysProcAttr{
		Setpgid:     true,
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
	}
}

// nsNames names the namespaces of clone flags.
func nsNames(flags uintptr) string {
	var out []string
	for _, f := range []struct {
		flag uintptr
		name string
	}{{syscall.CLONE_NEWUSER, "userns"}, {syscall.CLONE_NEWNET, "netns"}, {syscall.CLONE_NEWIPC, "ipcns"},
		{syscall.CLONE_NEWUTS, "utsns"}} {
		if flags&f.flag != 0 {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, "+")
}

// detectIsolation tries a trivial interpreter run in new namespaces (flags) once.
func detectIsolation(ctx context.Context, py, dir string, flags uintptr, off bool) (*syscall.SysProcAttr, string) {
	plain := &syscall.SysProcAttr{Setpgid: true}
	if off {
		return plain, "rlimits+audit-hook (namespaces turned off)"
	}
	attr := nsAttr(flags)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-c", "import socket\ntry:\n socket.create_connection(('127.0.0.1', 9), 1)\nexcept OSError:\n pass")
	cmd.Dir = dir
	cmd.Env = baseEnv(dir)
	cmd.SysProcAttr = attr
	if out, err := cmd.CombinedOutput(); err != nil {
		return plain, fmt.Sprintf("rlimits+audit-hook (no namespaces: %v %s)", err, strings.TrimSpace(string(out)))
	}
	return attr, nsNames(flags) + "+rlimits+audit-hook"
}

func baseEnv(home string) []string {
	return []string{"TZ=UTC", "PYTHONHASHSEED=0", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=" + home}
}

// maxReport caps what one run may send over the report channel.
const maxReport = 4 << 20

// Run executes code and calls function (empty: every top-level function and method).
// A failure of the code is a Result status, never an error; the error is only for
// a sandbox that cannot start a process at all. With batching (the default for a
// fork server) tame code runs in a batch child, anything else, or anything a
// batch could not vouch for, in a child of its own (Result.Placement says which).
func (r *Runner) Run(ctx context.Context, code, function string) (Result, error) {
	if r.batching {
		return r.runBatched(ctx, code, function)
	}
	return r.runOwn(ctx, code, function)
}

// runOwn runs code in a child of its own.
func (r *Runner) runOwn(ctx context.Context, code, function string) (Result, error) {
	start := time.Now()
	res := Result{Requests: []Request{}}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	j, err := r.prepare(code, function)
	if err != nil {
		return res, err
	}
	defer j.remove()
	ch, err := r.start(j)
	if err != nil {
		return res, err
	}
	rep := &report{nonce: j.nonce, res: &res}
	killedBy, ex := r.supervise(ctx, ch, j.pr, rep)
	res.Duration = time.Since(start)
	res.Stderr = j.stderrText()
	res.Status, res.Reason = classify(killedBy, rep, ex)
	res.CPU.Total = ex.cpu
	if !res.Facts.Syntax && res.Facts.Error == "" && res.Status == StatusOK {
		res.Status, res.Reason = StatusCrash, "no facts reported"
	}
	return res, nil
}

// job is one run's files: the report pipe, the memory file that takes the job to
// the child and then holds its stderr, and (exec mode) a scratch directory.
type job struct {
	scratch string   // the run's scratch directory; "" for a fork server's own
	nonce   string   // starts every report line of this run
	limits  []string // as the harness takes them: CPU s, address space, file size, files, processes
	pr, pw  *os.File // the report pipe; pw is closed once the child has it
	mem     *os.File // the job, then the child's stderr
}

// prepare makes a run's files. On an error it leaves none behind.
func (r *Runner) prepare(code, function string) (_ *job, err error) {
	j := &job{}
	defer func() {
		if err != nil {
			j.remove()
		}
	}()
	if !r.warm {
		if j.scratch, err = os.MkdirTemp(r.dir, "run-"); err != nil {
			return nil, fmt.Errorf("sandbox: scratch directory: %w", err)
		}
	}
	j.nonce = newNonce()
	if j.pr, j.pw, err = os.Pipe(); err != nil {
		return nil, fmt.Errorf("sandbox: report pipe: %w", err)
	}
	l := r.limits
	j.limits = []string{strconv.Itoa(l.CPUSeconds), strconv.Itoa(l.MemoryMB << 20), strconv.Itoa(l.FileSizeMB << 20),
		strconv.Itoa(l.OpenFiles), strconv.Itoa(l.Processes)}
	// The job goes in a memory file, neither a file on disk (a run touches no file
	// of ours) nor a pipe (whose end of file a sibling caught between fork and exec
	// can hold back). The child empties it before the code runs, and its stderr goes
	// there next; WriteAt leaves the offset at 0 for it.
	if j.mem, err = memfd("sccg-job"); err != nil {
		return nil, fmt.Errorf("sandbox: job file: %w", err)
	}
	function = oneLine.Replace(function)
	if _, err = j.mem.WriteAt([]byte(j.nonce+"\n"+function+"\n"+code), 0); err != nil {
		return nil, fmt.Errorf("sandbox: write job: %w", err)
	}
	return j, nil
}

// oneLine puts a function name on one line of a job's header.
var oneLine = strings.NewReplacer("\n", " ", "\r", " ")

// newNonce is a fresh random nonce for one run's report lines.
func newNonce() string {
	var nb [12]byte
	rand.Read(nb[:])
	return hex.EncodeToString(nb[:])
}

// memfd makes an anonymous memory file (closed on exec unless passed on).
func memfd(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// remove closes the run's files and removes its scratch directory.
func (j *job) remove() {
	for _, f := range []*os.File{j.mem, j.pw, j.pr} {
		if f != nil {
			f.Close()
		}
	}
	if j.scratch != "" {
		os.RemoveAll(j.scratch)
	}
}

// stderrText is the start (8 KiB) of what the child wrote to stderr.
func (j *job) stderrText() string {
	var eb [8 << 10]byte
	n, _ := j.mem.ReadAt(eb[:], 0)
	return strings.ToValidUTF8(string(eb[:n]), "?")
}

// start starts the child that runs the job: forked by a fork server, or a fresh
// interpreter. From then on the report pipe's write end is the child's alone.
func (r *Runner) start(j *job) (child, error) {
	var ch child
	var err error
	if r.warm {
		ch, err = r.startWarm(false, strings.Join(j.limits, "\t"), j.pw, j.mem)
	} else {
		ch, err = r.startExec(j.scratch, j.limits, j.pw, j.mem)
	}
	j.pw.Close()
	j.pw = nil
	return ch, err
}

// exit is how a child ended, as waiting for it told.
type exit struct {
	ws  syscall.WaitStatus
	cpu time.Duration // its CPU time, user and system
	err error
}

// supervise reads the report while the child runs, kills the child's process group
// at the wall-clock limit or when ctx is done, waits for the child and drains what
// is left of the report. killedBy says which of the two killed it, if one did.
func (r *Runner) supervise(ctx context.Context, ch child, pr *os.File, rep *report) (killedBy Status, ex exit) {
	var rd io.Reader = pr
	if p, err := newPollReader(pr); err == nil {
		rd = p
	}
	lines, readDone := readLines(rd, maxReport)
	waited := make(chan exit, 1)
	go func() {
		ws, cpu, err := ch.wait()
		waited <- exit{ws, cpu, err}
	}()
	timer := time.NewTimer(r.limits.Timeout)
	defer timer.Stop()
	for waiting := true; waiting; {
		select {
		case line, ok := <-lines:
			if !ok {
				lines = nil
				continue
			}
			rep.add(line)
		case ex = <-waited:
			waiting = false
		case <-timer.C:
			killedBy = StatusTimeout
			ch.kill()
		case <-ctx.Done():
			if killedBy == "" {
				killedBy = StatusKilled
			}
			ch.kill()
		}
	}
	// The interpreter is gone; make sure nothing it left behind lives on, then drain.
	ch.kill()
	drainLines(lines, pr, rep)
	<-readDone
	return killedBy, ex
}

// lineReaders are the buffered readers of readLines, kept between runs: a new
// 64 KiB buffer for each run was fresh pages to fault in and clear.
var lineReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// readLines reads the report channel line by line (max bytes at most; an
// over-long line is skipped) until its end. lines is closed after the last line,
// done once the reading is over.
func readLines(pr io.Reader, max int64) (lines <-chan []byte, done <-chan struct{}) {
	out := make(chan []byte, 16)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(out)
		br := lineReaders.Get().(*bufio.Reader)
		br.Reset(io.LimitReader(pr, max))
		defer func() {
			br.Reset(nil)
			lineReaders.Put(br)
		}()
		for {
			line, err := br.ReadSlice('\n')
			if len(line) > 0 && err == nil {
				out <- bytes.Clone(line) // ReadSlice reuses its buffer
			}
			if err == bufio.ErrBufferFull {
				// an over-long line: skip to its end
				for err == bufio.ErrBufferFull {
					_, err = br.ReadSlice('\n')
				}
				continue
			}
			if err != nil {
				return
			}
		}
	}()
	return out, readDone
}

// drainLines takes the lines still to come after the child ended, for 200 ms at
// most (a process the child left behind may hold the pipe open); then it closes the
// pipe, which ends the reading.
func drainLines(lines <-chan []byte, pr *os.File, rep *report) {
	drain := time.NewTimer(200 * time.Millisecond)
	defer drain.Stop()
	for lines != nil {
		select {
		case line, ok := <-lines:
			if !ok {
				lines = nil
				continue
			}
			rep.add(line)
		case <-drain.C:
			pr.Close()
			for range lines {
			}
			lines = nil
		}
	}
}

// report collects what the harness reported: the facts and requests go into res
// (the first 100 requests), and the end line says how the harness saw the run end.
//
// The code under test can write report lines too (it can reach the harness's
// report function through the objects it is handed), so only what the harness
// sends where the code cannot come first or last is believed: the facts are the
// first line, sent before any of the code runs, and any later facts line is
// ignored; the end line taken is the last one, as the harness sends its own after
// the code has run. A request line it could write is one it could have sent
// through a recorder.
type report struct {
	nonce  string
	res    *Result
	lines  int  // lines with the run's nonce so far
	facts  bool // the first line was the facts
	ended  bool // an end line arrived
	status Status
	reason string
}

// add takes one report line; a line without the run's nonce is ignored, and so is
// every line when the first was not the facts.
func (rep *report) add(line []byte) {
	kind, body, ok := parseLine(line, rep.nonce)
	if !ok {
		return
	}
	rep.lines++
	if rep.lines == 1 && kind == "facts" {
		rep.facts = json.Unmarshal(body, &rep.res.Facts) == nil
		return
	}
	if !rep.facts {
		return
	}
	switch kind {
	case "req":
		var q Request
		if json.Unmarshal(body, &q) == nil && q.Method != "" && q.URL != "" && len(rep.res.Requests) < 100 {
			rep.res.Requests = append(rep.res.Requests, q)
		}
	case "end":
		var e struct {
			Status    string   `json:"status"`
			Error     string   `json:"error"`
			Stubbed   []string `json:"stubbed"`
			Undefined []string `json:"undefined"`
			SetupUS   int64    `json:"cpu_setup_us"`
			CodeUS    int64    `json:"cpu_code_us"`
		}
		if json.Unmarshal(body, &e) == nil {
			rep.res.CPU.Setup, rep.res.CPU.Code = time.Duration(e.SetupUS)*time.Microsecond, time.Duration(e.CodeUS)*time.Microsecond
			rep.ended = true
			rep.status, rep.reason, rep.res.Stubbed, rep.res.Undefined = Status(e.Status), e.Error, e.Stubbed, e.Undefined
		}
	}
}

// classify says how a run ended: killed from outside (killedBy), else as the
// harness's end report says, else from how the child exited.
func classify(killedBy Status, rep *report, ex exit) (Status, string) {
	if killedBy == StatusTimeout {
		return StatusTimeout, "wall-clock timeout"
	}
	if killedBy == StatusKilled {
		return StatusKilled, "run cancelled"
	}
	if rep.ended {
		switch rep.status {
		case StatusOK, StatusError, StatusOOM:
			return rep.status, rep.reason
		}
		return StatusError, rep.reason
	}
	if ex.err != nil {
		return StatusCrash, ex.err.Error()
	}
	ws := ex.ws
	if ws.Signaled() {
		switch ws.Signal() {
		case syscall.SIGXCPU:
			return StatusTimeout, "CPU-time limit"
		case syscall.SIGKILL:
			return StatusKilled, "killed by SIGKILL"
		case syscall.SIGXFSZ:
			return StatusCrash, "file-size limit"
		default:
			return StatusCrash, "signal " + ws.Signal().String()
		}
	}
	if ws.Exited() {
		switch ws.ExitStatus() {
		case 86:
			return StatusCrash, "report channel lost"
		}
		return StatusCrash, fmt.Sprintf("exited with status %d before the harness finished", ws.ExitStatus())
	}
	return StatusCrash, "no end report"
}

// child is a started sandboxed process: its pid (also its process group) and how
// to wait for it (how it ended, and its CPU time).
type child struct {
	pid  int
	wait func() (syscall.WaitStatus, time.Duration, error)
	// abandon, when set, gives up on the child's report of its end: its fork
	// server is dropped, which ends a wait that would otherwise last.
	abandon func()
}

// kill ends the child and its process group.
func (c child) kill() {
	syscall.Kill(-c.pid, syscall.SIGKILL)
	syscall.Kill(c.pid, syscall.SIGKILL)
}

// startExec starts a fresh interpreter for one job: the report pipe is its
// descriptor 3, the job's memory file 4 and (the same file) its stderr.
func (r *Runner) startExec(scratch string, limits []string, pw, mem *os.File) (child, error) {
	args := append([]string{"-I", "-S", "-B", r.harness, "3", "4", scratch}, limits...)
	cmd := exec.Command(r.python, args...)
	cmd.Dir = scratch
	cmd.Env = baseEnv(scratch)
	cmd.Stdout = nil // /dev/null: printing megabytes costs the code, not us
	cmd.Stderr = mem
	cmd.ExtraFiles = []*os.File{pw, mem}
	attr := *r.attr
	cmd.SysProcAttr = &attr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return child{}, fmt.Errorf("sandbox: start %s: %w", r.python, err)
	}
	return child{pid: cmd.Process.Pid, wait: func() (syscall.WaitStatus, time.Duration, error) {
		err := cmd.Wait()
		if ps := cmd.ProcessState; ps != nil {
			if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
				return ws, ps.UserTime() + ps.SystemTime(), nil // how it ended is in ws, whatever Wait says about stdio
			}
		}
		return 0, 0, err
	}}, nil
}

// parseLine splits "NONCE\tKIND\tJSON\n", rejecting lines without the run's nonce.
func parseLine(line []byte, nonce string) (kind string, body []byte, ok bool) {
	line = bytes.TrimRight(line, "\n")
	parts := bytes.SplitN(line, []byte{'\t'}, 3)
	if len(parts) != 3 || string(parts[0]) != nonce {
		return "", nil, false
	}
	return string(parts[1]), parts[2], true
}
