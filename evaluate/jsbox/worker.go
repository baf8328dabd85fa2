package jsbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"golang.org/x/sys/unix"

	"sccg/evaluate/sandbox"
	"sccg/lang"
)

// WorkerArg is the hidden first argument that makes a program (sccg, or a test
// binary in its TestMain) serve as a sandbox worker: see IsWorker and ServeWorker.
const WorkerArg = "__jsbox-worker"

// Exit codes of a worker that the runner reads.
const (
	exitUsage = 2 // also the Go runtime's exit code on a fatal error (out of memory)
	exitCPU   = 3 // the CPU-time limit of a job
	exitProto = 4 // a broken job stream
)

// maxFrame caps a job or a result on the wire.
const maxFrame = 16 << 20

// IsWorker reports whether a program started with args (os.Args) is to serve as a
// worker.
func IsWorker(args []string) bool { return len(args) > 1 && args[1] == WorkerArg }

// ServeWorker serves jobs read from in and writes their results to out, one frame
// each (a 4-byte big-endian length, then the job's strings, see writeJob, or the
// result's JSON), until in ends; it returns the process's exit code. args (after
// WorkerArg) set the limits: -memory-mb caps the address space (RLIMIT_AS) and, at
// half of it, the heap a completion may fill before it is stopped; -cpu-seconds
// caps the CPU time of each job (RLIMIT_CPU); -cpuprofile profiles the jobs.
// Nothing the completions do reaches out: each runs in a fresh runtime that has
// no way to the system, and only the harness writes to out.
func ServeWorker(in io.Reader, out io.Writer, args []string) int {
	fs := flag.NewFlagSet(WorkerArg, flag.ContinueOnError)
	memMB := fs.Int("memory-mb", 1024, "address-space limit in MiB")
	cpuS := fs.Int("cpu-seconds", 6, "CPU-time limit of one job in seconds")
	regexpMS := fs.Int("regexp-ms", 5000, "time limit of one backtracking regular-expression match in ms")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the worker's jobs to this file (PID appended)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if err := limitMemory(*memMB); err != nil {
		fmt.Fprintln(os.Stderr, "jsbox worker:", err)
		return exitUsage
	}
	e, err := newEngine()
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsbox worker:", err)
		return exitUsage
	}
	// A catastrophic backtracking regular expression (goja runs patterns Go's
	// linear engine cannot take on regexp2) gives up at this bound, after which
	// the runtime's own deadline stops the code.
	regexp2.DefaultMatchTimeout = time.Duration(*regexpMS) * time.Millisecond
	go watchHeap(e, uint64(*memMB)<<19) // half the address space
	stackBallast()
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, syscall.SIGXCPU)
	go func() {
		<-xcpu
		os.Exit(exitCPU)
	}()

	// Warm up: esbuild's first transform sets up its tables (~15 ms), no
	// completion's time.
	e.run(job{Lang: string(lang.DialectTS), Code: "import a from 'axios';\nexport const f = (x: string) => a.get(x);", Function: "f", TimeoutMS: 1000})
	rd := bufio.NewReaderSize(in, 64<<10)
	wr := bufio.NewWriterSize(out, 64<<10)
	// ready: the runner times a job from here, not from the worker's start
	if err := writeFrame(wr, reply{Ready: true}); err == nil {
		err = wr.Flush()
	}
	if *cpuProfile != "" {
		// for profiling the jobs (BenchmarkIsolated with SCCG_JSBOX_WORKER_PROFILE)
		if f, err := os.Create(*cpuProfile + "." + strconv.Itoa(os.Getpid())); err == nil && pprof.StartCPUProfile(f) == nil {
			defer f.Close()
			defer pprof.StopCPUProfile()
		}
	}
	cpu := newCPULimit(*cpuS)
	cpu.next(processCPU())
	for {
		var j job
		if err := readJob(rd, &j); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "jsbox worker: read job:", err)
			return exitProto
		}
		res, ph := e.run(j)
		res.CPU = sandbox.CPU{Setup: ph.cpuSetup, Code: ph.cpuCode, Total: ph.cpuTotal}
		// the worker spends no CPU time between jobs but writing and reading them:
		// the limit of the next job counts from this one's end
		cpu.next(ph.cpuEnd)
		if err := writeFrame(wr, reply{Result: res, Phases: ph.wire()}); err == nil {
			err = wr.Flush()
		}
		if err != nil {
			return exitProto
		}
	}
}

// A job travels as a frame of its own: a 4-byte big-endian length, then the
// language, the code and the function, each as a 4-byte length and its bytes,
// and the timeout as 8 bytes. Decoding the code from JSON (its quotes and
// newlines escaped) cost a worker more than the rest of a job's I/O.

// appendString appends s as a 4-byte length and its bytes, invalid UTF-8 coerced
// as encoding/json coerces it (each invalid byte a U+FFFD): the code a worker
// runs is the code JSON would have carried.
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		var v strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				v.WriteRune(utf8.RuneError)
			} else {
				v.WriteString(s[i : i+n])
			}
			i += n
		}
		s = v.String()
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// writeJob writes j as one frame, in one write.
func writeJob(w io.Writer, j job) error {
	b := make([]byte, 4, 4+4*3+8+len(j.Lang)+len(j.Code)+len(j.Function))
	b = appendString(b, j.Lang)
	b = appendString(b, j.Code)
	b = appendString(b, j.Function)
	b = binary.BigEndian.AppendUint64(b, uint64(int64(j.TimeoutMS)))
	if len(b)-4 > maxFrame {
		return fmt.Errorf("frame of %d bytes is over the limit", len(b)-4)
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	_, err := w.Write(b)
	return err
}

// readJob reads a frame writeJob wrote.
func readJob(r *bufio.Reader, j *job) error {
	buf, err := readFrameBytes(r)
	if err != nil {
		return err
	}
	next := func() (string, error) {
		if len(buf) < 4 || uint32(len(buf)-4) < binary.BigEndian.Uint32(buf) {
			return "", errors.New("job frame cut short")
		}
		k := binary.BigEndian.Uint32(buf)
		s := string(buf[4 : 4+k])
		buf = buf[4+k:]
		return s, nil
	}
	if j.Lang, err = next(); err != nil {
		return err
	}
	if j.Code, err = next(); err != nil {
		return err
	}
	if j.Function, err = next(); err != nil {
		return err
	}
	if len(buf) != 8 {
		return errors.New("job frame of a wrong length")
	}
	j.TimeoutMS = int(int64(binary.BigEndian.Uint64(buf)))
	return nil
}

// reply is a worker's answer to one job.
type reply struct {
	Ready  bool           `json:"ready,omitempty"` // the first frame, once the worker can serve
	Result sandbox.Result `json:"result"`
	Phases wirePhases     `json:"phases"`
}

// wirePhases are phases in nanoseconds.
type wirePhases struct {
	Transform int64 `json:"transform_ns"`
	Parse     int64 `json:"parse_ns"`
	Runtime   int64 `json:"runtime_ns"`
	Code      int64 `json:"code_ns"`
}

func (p phases) wire() wirePhases {
	return wirePhases{int64(p.transform), int64(p.parse), int64(p.runtime), int64(p.code)}
}

// readFrameBytes reads one length-prefixed frame's payload.
func readFrameBytes(r *bufio.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return nil, fmt.Errorf("frame of %d bytes is over the limit", n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// readFrame reads one frame of JSON into v.
func readFrame(r *bufio.Reader, v any) error {
	buf, err := readFrameBytes(r)
	if err != nil {
		return err
	}
	return json.Unmarshal(buf, v)
}

func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > maxFrame {
		return fmt.Errorf("frame of %d bytes is over the limit", len(b))
	}
	// one write: on the runner's side a frame goes straight to the pipe, and a
	// header written alone would wake the worker to read four bytes
	frame := make([]byte, 4, 4+len(b))
	binary.BigEndian.PutUint32(frame, uint32(len(b)))
	_, err = w.Write(append(frame, b...))
	return err
}

// limitMemory caps the worker's address space at what the Go runtime has mapped
// already (its reservations run to hundreds of MiB before any heap) plus mb, and
// has the garbage collector work harder as the heap nears half of mb.
func limitMemory(mb int) error {
	lim := uint64(mb) << 20
	as := lim + vmSize()
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: as, Max: as}); err != nil {
		return fmt.Errorf("set RLIMIT_AS: %w", err)
	}
	debug.SetMemoryLimit(int64(lim / 4 * 3))
	// Each completion leaves a runtime's worth of garbage: collect less often (the
	// memory limit still bounds the heap).
	debug.SetGCPercent(400)
	// One completion runs at a time; a runner starts a worker per core.
	runtime.GOMAXPROCS(1)
	debug.SetMaxStack(256 << 20)
	return nil
}

// vmSize is the process's mapped address space now (VmSize), 0 when unknown.
func vmSize() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cpuLimit sets the CPU-time limit of each job (RLIMIT_CPU's soft limit; past
// it the kernel sends SIGXCPU and the worker exits with exitCPU).
type cpuLimit struct {
	perJob uint64 // seconds a job may use
	max    uint64 // the hard limit
	soft   uint64 // the soft limit set last (0: none yet)
	ok     bool
}

func newCPULimit(cpuS int) *cpuLimit {
	var cur unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_CPU, &cur) != nil {
		return &cpuLimit{}
	}
	return &cpuLimit{perJob: uint64(cpuS), max: cur.Max, ok: true}
}

// next lets the next job use perJob more seconds than used, the process's CPU
// time now. The limit is set only when it changes: it is counted in whole
// seconds.
func (l *cpuLimit) next(used time.Duration) {
	if !l.ok {
		return
	}
	soft := uint64(used/time.Second) + l.perJob + 1
	if l.max != unix.RLIM_INFINITY && soft > l.max {
		soft = l.max
	}
	if soft == l.soft {
		return
	}
	if unix.Setrlimit(unix.RLIMIT_CPU, &unix.Rlimit{Cur: soft, Max: l.max}) == nil {
		l.soft = soft
	}
}

// processCPU is the process's CPU time, user and system.
func processCPU() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// watchHeap stops the running completion once the heap holds more than limit
// bytes: the address-space limit would end the whole worker a little later.
func watchHeap(e *engine, limit uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() <= limit {
			continue
		}
		// over the limit, garbage included: what is still live decides
		runtime.GC()
		metrics.Read(s)
		if s[1].Value.Kind() == metrics.KindUint64 && s[1].Value.Uint64() > limit/2 {
			e.interrupt(errMemory)
		}
	}
}

// stackBallast parks a few goroutines deep in their stacks, for good. The
// runtime starts a goroutine with the average stack it found in use at the last
// collection, and a worker's own goroutines are shallow and idle; esbuild runs
// each transform in goroutines of its own that recurse deep, so they started
// small and copied their stacks as they grew, a fifth of a transform's CPU. With
// the ballast's 8 × ~130 KiB in the average, they start big enough (1 MiB of
// stacks in all).
func stackBallast() {
	for range 8 {
		go func() {
			var block chan struct{}
			deepen(128, block)
		}()
	}
}

// deepen takes about depth KiB of stack, then blocks on block for good.
func deepen(depth int, block chan struct{}) byte {
	var pad [1000]byte
	if depth == 0 {
		<-block
	}
	pad[depth%len(pad)] = byte(depth)
	if depth > 0 {
		return deepen(depth-1, block) + pad[depth%len(pad)]
	}
	return pad[0]
}
