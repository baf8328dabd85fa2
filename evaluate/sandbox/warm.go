package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// zygote is a warm fork server: an interpreter that has loaded the harness and
// the common standard modules and never runs generated code itself. For each job it
// forks a child that runs the job in the server's scratch directory, and reports
// the child's pid and (once it has emptied the directory) its wait status and CPU
// time. A server serves one child at a time, and a batch child holds its server
// for its whole life; so the servers of batch children (which load what a batch
// shares too, about 300 ms of CPU more at start) are kept apart from the servers
// of the runs in a child of their own, which then start as light as those of an
// unbatched runner.
type zygote struct {
	cmd     *exec.Cmd
	ctrl    *os.File      // our end of a SOCK_SEQPACKET socket pair, on Go's poller
	scratch string        // the scratch directory of its children, one at a time
	done    chan struct{} // closed once the server is reaped
	batch   bool          // its children run batches
}

// zygotes is the runner's pool of idle fork servers.
type zygotes struct {
	mu   sync.Mutex
	idle []*zygote
	all  map[*zygote]bool
	// ending counts the batch children that are ending: their servers come back
	// soon, and a new batch child waits for one (back) rather than start another.
	ending int
	back   sync.Cond
}

// startZygote starts a fork server, whose children run batches when batch is set.
func (r *Runner) startZygote(batch bool) (*zygote, error) {
	scratch, err := os.MkdirTemp(r.dir, "scratch-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: fork server scratch directory: %w", err)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		os.Remove(scratch)
		return nil, fmt.Errorf("sandbox: control socket: %w", err)
	}
	// Our end is non-blocking, so waiting on it parks a goroutine on the poller
	// instead of holding a thread in read(2).
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		os.Remove(scratch)
		return nil, fmt.Errorf("sandbox: control socket: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "zygote-ctrl")
	theirs := os.NewFile(uintptr(fds[1]), "zygote-ctrl")
	args := []string{"-I", "-S", "-B", r.harness, "serve", "3", scratch}
	if batch {
		args = append(args, "batch")
	}
	cmd := exec.Command(r.python, args...)
	cmd.Dir = r.dir
	cmd.Env = baseEnv(r.dir)
	cmd.ExtraFiles = []*os.File{theirs}
	attr := *r.attr
	attr.Setpgid = true
	cmd.SysProcAttr = &attr
	if err := cmd.Start(); err != nil {
		theirs.Close()
		ours.Close()
		os.Remove(scratch)
		return nil, fmt.Errorf("sandbox: start fork server: %w", err)
	}
	theirs.Close()
	z := &zygote{cmd: cmd, ctrl: ours, scratch: scratch, done: make(chan struct{}), batch: batch}
	r.pool.mu.Lock()
	if r.pool.all == nil {
		r.pool.all = map[*zygote]bool{}
	}
	r.pool.all[z] = true
	r.pool.mu.Unlock()
	go func() { // reap it whenever it ends
		cmd.Wait()
		close(z.done)
	}()
	// Loading the warm modules can take a while on a busy machine; wait for it here
	// so a job's own deadline only covers the fork.
	reply, err := recvCtrl(z.ctrl, 2*time.Minute)
	if err != nil || reply != "ready" {
		r.dropZygote(z)
		return nil, fmt.Errorf("sandbox: fork server did not start: %q %v", reply, err)
	}
	return z, nil
}

// getZygote takes an idle fork server of the kind asked for (batch: its children
// run batches), or starts one.
func (r *Runner) getZygote(batch bool) (*zygote, error) {
	r.pool.mu.Lock()
	for {
		for i := len(r.pool.idle) - 1; i >= 0; i-- {
			if z := r.pool.idle[i]; z.batch == batch {
				r.pool.idle = append(r.pool.idle[:i], r.pool.idle[i+1:]...)
				r.pool.mu.Unlock()
				return z, nil
			}
		}
		if !batch || r.pool.ending == 0 {
			break
		}
		r.pool.back.Wait()
	}
	r.pool.mu.Unlock()
	return r.startZygote(batch)
}

// endBatch ends batch child b in the background, and tells those waiting for a
// server of batch children once b's is back (or gone).
func (r *Runner) endBatch(b *batchChild) {
	r.pool.mu.Lock()
	r.pool.ending++
	r.pool.mu.Unlock()
	go func() {
		if b.end() {
			r.count(func(s *BatchStats) { s.ServersDropped++ })
		}
		r.pool.mu.Lock()
		r.pool.ending--
		r.pool.mu.Unlock()
		r.pool.back.Broadcast()
	}()
}

func (r *Runner) putZygote(z *zygote) {
	r.pool.mu.Lock()
	defer r.pool.mu.Unlock()
	r.pool.idle = append(r.pool.idle, z)
}

// dropZygote ends a fork server that misbehaved, and removes its scratch
// directory once it is gone.
func (r *Runner) dropZygote(z *zygote) {
	syscall.Kill(-z.cmd.Process.Pid, syscall.SIGKILL)
	z.ctrl.Close()
	r.pool.mu.Lock()
	delete(r.pool.all, z)
	r.pool.mu.Unlock()
	go func() {
		<-z.done
		os.RemoveAll(z.scratch)
	}()
}

func (r *Runner) closeZygotes() {
	r.pool.mu.Lock()
	all := r.pool.all
	r.pool.all, r.pool.idle = nil, nil
	r.pool.mu.Unlock()
	for z := range all {
		syscall.Kill(-z.cmd.Process.Pid, syscall.SIGKILL)
		z.ctrl.Close()
	}
	for z := range all {
		select {
		case <-z.done:
		case <-time.After(2 * time.Second):
		}
	}
}

// serverGrace is how long past a job's wall-clock limit its fork server may take
// to report the child's end (it empties the scratch directory first).
var serverGrace = 30 * time.Second

// recvCtrl reads one control message, giving up after d (0: waiting as long as
// it takes).
func recvCtrl(f *os.File, d time.Duration) (string, error) {
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	if err := f.SetReadDeadline(deadline); err != nil {
		return "", err
	}
	rd, err := newPollReader(f)
	if err != nil {
		return "", err
	}
	var buf [256]byte
	n, err := rd.Read(buf[:])
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// sendCtrl sends one control message with the descriptors fds.
func sendCtrl(f *os.File, msg string, fds ...int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Write(func(fd uintptr) bool {
		errno = rawSendmsg(fd, []byte(msg), syscall.UnixRights(fds...))
		return errno != syscall.EAGAIN
	}); err != nil {
		return err
	}
	if errno != 0 {
		return os.NewSyscallError("sendmsg", errno)
	}
	return nil
}

// startWarm has a fork server start the child of control message msg (a job's
// limits, or a batch's: batch is set); files (the report pipe's write end and the
// job's memory file, or those of a batch) travel with it.
func (r *Runner) startWarm(batch bool, msg string, files ...*os.File) (child, error) {
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	var last error
	for attempt := 0; attempt < 2; attempt++ {
		z, err := r.getZygote(batch)
		if err != nil {
			return child{}, err
		}
		if err := sendCtrl(z.ctrl, msg, fds...); err != nil {
			r.dropZygote(z)
			last = err
			continue
		}
		reply, err := recvCtrl(z.ctrl, 30*time.Second)
		if err != nil || !strings.HasPrefix(reply, "pid ") {
			r.dropZygote(z)
			last = fmt.Errorf("fork server: %q %v", reply, err)
			continue
		}
		pid, err := strconv.Atoi(strings.TrimPrefix(reply, "pid "))
		if err != nil {
			r.dropZygote(z)
			last = err
			continue
		}
		// A job's child ends by its wall-clock limit; a batch child lives as long
		// as its batch, idle between jobs as long as no job comes, and ends when its
		// job socket is closed (or it is killed).
		timeout := r.limits.Timeout + serverGrace
		if batch {
			timeout = 0
		}
		return child{pid: pid, abandon: func() { r.dropZygote(z) }, wait: func() (syscall.WaitStatus, time.Duration, error) {
			reply, err := recvCtrl(z.ctrl, timeout)
			// "status WAITSTATUS CPU_US"
			f := strings.Fields(reply)
			if err != nil || len(f) != 3 || f[0] != "status" {
				syscall.Kill(-pid, syscall.SIGKILL)
				r.dropZygote(z)
				return 0, 0, fmt.Errorf("fork server lost the child: %q %v", reply, err)
			}
			st, err1 := strconv.Atoi(f[1])
			us, err2 := strconv.ParseInt(f[2], 10, 64)
			if err1 != nil || err2 != nil {
				r.dropZygote(z)
				return 0, 0, fmt.Errorf("fork server: %q", reply)
			}
			r.putZygote(z)
			return syscall.WaitStatus(st), time.Duration(us) * time.Microsecond, nil
		}}, nil
	}
	return child{}, fmt.Errorf("sandbox: fork server: %w", last)
}

// scratchDirs are the fork servers' scratch directories, for tests.
func (r *Runner) scratchDirs() []string {
	r.pool.mu.Lock()
	defer r.pool.mu.Unlock()
	var out []string
	for z := range r.pool.all {
		out = append(out, filepath.Clean(z.scratch))
	}
	return out
}
