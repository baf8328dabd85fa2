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
// the child's pid and (once it has emptied the directory) its wait status.
type zygote struct {
	cmd     *exec.Cmd
	ctrl    int           // our end of a SOCK_SEQPACKET socket pair
	scratch string        // the scratch directory of its children, one at a time
	done    chan struct{} // closed once the server is reaped
}

// zygotes is the runner's pool of idle fork servers.
type zygotes struct {
	mu   sync.Mutex
	idle []*zygote
	all  map[*zygote]bool
}

func (r *Runner) startZygote() (*zygote, error) {
	scratch, err := os.MkdirTemp(r.dir, "scratch-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: fork server scratch directory: %w", err)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		os.Remove(scratch)
		return nil, fmt.Errorf("sandbox: control socket: %w", err)
	}
	// One receive timeout for every reply: a job's start and its end.
	tv := syscall.NsecToTimeval((r.limits.Timeout + 30*time.Second).Nanoseconds())
	if err := syscall.SetsockoptTimeval(fds[0], syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		os.Remove(scratch)
		return nil, fmt.Errorf("sandbox: control socket: %w", err)
	}
	theirs := os.NewFile(uintptr(fds[1]), "zygote-ctrl")
	cmd := exec.Command(r.python, "-I", "-S", "-B", r.harness, "serve", "3", scratch)
	cmd.Dir = r.dir
	cmd.Env = baseEnv(r.dir)
	cmd.ExtraFiles = []*os.File{theirs}
	attr := *r.attr
	attr.Setpgid = true
	cmd.SysProcAttr = &attr
	if err := cmd.Start(); err != nil {
		theirs.Close()
		syscall.Close(fds[0])
		os.Remove(scratch)
		return nil, fmt.Errorf("sandbox: start fork server: %w", err)
	}
	theirs.Close()
	z := &zygote{cmd: cmd, ctrl: fds[0], scratch: scratch, done: make(chan struct{})}
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
	reply, err := recvCtrl(z.ctrl)
	if err != nil || reply != "ready" {
		r.dropZygote(z)
		return nil, fmt.Errorf("sandbox: fork server did not start: %q %v", reply, err)
	}
	return z, nil
}

func (r *Runner) getZygote() (*zygote, error) {
	r.pool.mu.Lock()
	if n := len(r.pool.idle); n > 0 {
		z := r.pool.idle[n-1]
		r.pool.idle = r.pool.idle[:n-1]
		r.pool.mu.Unlock()
		return z, nil
	}
	r.pool.mu.Unlock()
	return r.startZygote()
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
	syscall.Close(z.ctrl)
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
		syscall.Close(z.ctrl)
	}
	for z := range all {
		select {
		case <-z.done:
		case <-time.After(2 * time.Second):
		}
	}
}

// recvCtrl reads one control message (the socket's receive timeout bounds the wait).
func recvCtrl(fd int) (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return "", err
		}
		if n == 0 {
			return "", fmt.Errorf("fork server closed its control socket")
		}
		return string(buf[:n]), nil
	}
}

// startWarm has a fork server start the job; the report pipe's write end and the
// job's memory file travel with the control message.
func (r *Runner) startWarm(limits []string, pw, mem *os.File) (child, error) {
	var last error
	for attempt := 0; attempt < 2; attempt++ {
		z, err := r.getZygote()
		if err != nil {
			return child{}, err
		}
		msg := strings.Join(limits, "\t")
		if err := syscall.Sendmsg(z.ctrl, []byte(msg), syscall.UnixRights(int(pw.Fd()), int(mem.Fd())), nil, 0); err != nil {
			r.dropZygote(z)
			last = err
			continue
		}
		reply, err := recvCtrl(z.ctrl)
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
		return child{pid: pid, wait: func() (syscall.WaitStatus, error) {
			reply, err := recvCtrl(z.ctrl)
			if err != nil || !strings.HasPrefix(reply, "status ") {
				syscall.Kill(-pid, syscall.SIGKILL)
				r.dropZygote(z)
				return 0, fmt.Errorf("fork server lost the child: %q %v", reply, err)
			}
			st, err := strconv.Atoi(strings.TrimPrefix(reply, "status "))
			if err != nil {
				r.dropZygote(z)
				return 0, err
			}
			r.putZygote(z)
			return syscall.WaitStatus(st), nil
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
