package sandbox

import (
	"errors"
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
// forks a child that runs the job in a scratch directory of its own, and reports
// the child's pid and, whenever the child ends (once the server has emptied the
// child's directory), its wait status and CPU time. A server serves many children
// at once (see serverChildren); one goroutine reads all it sends (readZygote)
// and hands each message to whoever waits for it. The servers of batch children
// (which load what a batch shares too, about 300 ms of CPU more at start) are kept
// apart from the servers of the runs in a child of their own, which then start as
// light as those of an unbatched runner: a runner has one server of each kind it
// needs, whatever the number of its callers.
type zygote struct {
	cmd     *exec.Cmd
	ctrl    *os.File      // our end of a SOCK_SEQPACKET socket pair, on Go's poller
	scratch string        // its first child's scratch directory; the others are scratch-1, scratch-2, ...
	done    chan struct{} // closed once the server is reaped
	batch   bool          // its children run batches

	// guarded by the runner's pool.mu
	max      int  // how many children it serves at once
	busy     int  // its children alive and the requests under way
	retiring bool // it takes no further job, and is dropped once busy is 0
	dropped  bool

	req     sync.Mutex     // one request (job message and its reply) at a time
	replies chan ctrlReply // the replies to a request: "pid N" (with its waiter) or "error ..."
	lost    chan struct{}
	mu      sync.Mutex
	waiters map[int]chan exit // by pid: where a child's end is told
}

// serverChildren is the most children a fork server serves at once (a runner's
// concurrent callers each hold one child of their own or one batch child at a
// time, so two workers need two): past it, another server of the kind starts.
// A server without a descriptor per child to wait on (Linux before 5.3) serves
// one at a time.
var serverChildren = 64

// zygotes is the runner's pool of fork servers.
type zygotes struct {
	mu   sync.Mutex
	all  map[*zygote]bool
	cond sync.Cond // a server started, or failed to
	// starting says a server of batch children ([1]) or of children of their own
	// ([0]) is starting: who needs one waits for it rather than start another.
	starting [2]bool
	// started counts the servers started ([1]: of batch children).
	started [2]int
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
	switch {
	case batch:
		args = append(args, "batch")
	case r.batching:
		args = append(args, "own") // beside a server of batches: what a batch does not take
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
	z := &zygote{cmd: cmd, ctrl: ours, scratch: scratch, done: make(chan struct{}), batch: batch,
		replies: make(chan ctrlReply, 1), lost: make(chan struct{}), waiters: map[int]chan exit{}}
	r.pool.mu.Lock()
	if r.pool.all == nil {
		r.pool.all = map[*zygote]bool{}
	}
	r.pool.all[z] = true
	r.pool.started[kind(batch)]++
	r.pool.mu.Unlock()
	go func() { // reap it whenever it ends
		cmd.Wait()
		close(z.done)
	}()
	// Loading the warm modules can take a while on a busy machine; wait for it here
	// so a job's own deadline only covers the fork.
	reply, err := recvCtrl(z.ctrl, 2*time.Minute)
	n, ok := strings.CutPrefix(reply, "ready ")
	most, _ := strconv.Atoi(n)
	if err != nil || !ok || most < 1 {
		r.dropZygote(z)
		return nil, fmt.Errorf("sandbox: fork server did not start: %q %v", reply, err)
	}
	r.pool.mu.Lock()
	z.max = min(most, serverChildren) // until now 0: no run takes a place on it
	r.pool.mu.Unlock()
	go r.readZygote(z)
	return z, nil
}

// kind is the index of a server's kind in zygotes.starting and started.
func kind(batch bool) int {
	if batch {
		return 1
	}
	return 0
}

// readZygote reads what fork server z sends until it ends or is dropped: a
// request's reply goes to the request, a child's end to its waiter. A server that
// says what it should not is dropped.
func (r *Runner) readZygote(z *zygote) {
	defer func() {
		close(z.lost)
		r.dropZygote(z)
	}()
	for {
		msg, err := recvCtrl(z.ctrl, 0)
		if err != nil {
			return
		}
		f := strings.Fields(msg)
		var w chan exit
		switch {
		case len(f) == 2 && f[0] == "pid":
			pid, err := strconv.Atoi(f[1])
			if err != nil || pid <= 0 {
				return
			}
			// The waiter travels with the reply: the child's end may come (and
			// leave the map) before the request has read its reply.
			w = make(chan exit, 1)
			z.mu.Lock()
			z.waiters[pid] = w
			z.mu.Unlock()
		case (len(f) == 4 || len(f) == 5 && f[4] == "dirty") && f[0] == "status":
			// "status PID WAITSTATUS CPU_US [dirty]"
			pid, err1 := strconv.Atoi(f[1])
			st, err2 := strconv.Atoi(f[2])
			us, err3 := strconv.ParseInt(f[3], 10, 64)
			z.mu.Lock()
			w := z.waiters[pid]
			delete(z.waiters, pid)
			z.mu.Unlock()
			if err1 != nil || err2 != nil || err3 != nil || w == nil {
				return
			}
			// retired, when dirty, before the run hears its child ended and asks for
			// its next
			r.releaseZygote(z, len(f) == 5)
			w <- exit{ws: syscall.WaitStatus(st), cpu: time.Duration(us) * time.Microsecond}
			continue
		}
		select {
		case z.replies <- ctrlReply{msg, w}:
		default: // no request waits for it
			return
		}
	}
}

// getZygote reserves a child's place on a fork server of the kind asked for
// (batch: its children run batches), starting one when none has room.
func (r *Runner) getZygote(batch bool) (*zygote, error) {
	p := &r.pool
	k := kind(batch)
	p.mu.Lock()
	for {
		for z := range p.all {
			if z.batch == batch && !z.retiring && !z.dropped && z.busy < z.max {
				z.busy++
				p.mu.Unlock()
				return z, nil
			}
		}
		if !p.starting[k] {
			break
		}
		p.cond.Wait()
	}
	p.starting[k] = true
	p.mu.Unlock()
	z, err := r.startZygote(batch)
	p.mu.Lock()
	p.starting[k] = false
	if err == nil {
		z.busy++
	}
	p.mu.Unlock()
	p.cond.Broadcast()
	return z, err
}

// releaseZygote gives back a place on z, whose child ended (or whose request
// failed); dirty says the child's scratch directory could not be emptied, and so
// z takes no further job (its children alive run to their end).
func (r *Runner) releaseZygote(z *zygote, dirty bool) {
	r.pool.mu.Lock()
	z.busy--
	z.retiring = z.retiring || dirty
	drop := z.retiring && z.busy == 0
	r.pool.mu.Unlock()
	if dirty {
		r.count(func(s *BatchStats) { s.ServersRetired++ })
	}
	if drop {
		r.dropZygote(z)
	}
}

// dropZygote ends a fork server (that misbehaved, or that takes no further job
// and has no child left), and removes its children's scratch directories once
// it is gone. Its children still alive lose their server: waiting for them ends
// in an error, and they are killed.
func (r *Runner) dropZygote(z *zygote) {
	r.pool.mu.Lock()
	was := z.dropped
	z.dropped = true
	delete(r.pool.all, z)
	r.pool.mu.Unlock()
	if was {
		return
	}
	syscall.Kill(-z.cmd.Process.Pid, syscall.SIGKILL)
	z.ctrl.Close()
	go func() {
		<-z.done
		for _, d := range z.dirs() {
			os.RemoveAll(d)
		}
	}()
}

// dirs are the scratch directories of z's children.
func (z *zygote) dirs() []string {
	more, _ := filepath.Glob(z.scratch + "-*")
	return append([]string{z.scratch}, more...)
}

func (r *Runner) closeZygotes() {
	r.pool.mu.Lock()
	all := r.pool.all
	r.pool.all = nil
	for z := range all {
		z.dropped = true
	}
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
		pid, w, err := r.request(z, msg, fds)
		if err != nil {
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
			var expired <-chan time.Time
			if timeout > 0 {
				t := time.NewTimer(timeout)
				defer t.Stop()
				expired = t.C
			}
			select {
			case ex := <-w:
				return ex.ws, ex.cpu, nil
			case <-z.lost:
				select {
				case ex := <-w: // told just before the server was lost
					return ex.ws, ex.cpu, nil
				default:
				}
			case <-expired:
				r.dropZygote(z)
			}
			syscall.Kill(-pid, syscall.SIGKILL)
			return 0, 0, errors.New("fork server lost the child")
		}}, nil
	}
	return child{}, fmt.Errorf("sandbox: fork server: %w", last)
}

// request sends job message msg with descriptors fds to z, on which a place is
// reserved, and returns the pid of the child it forked. On an error the place is
// given back: z is dropped when it did not answer, and takes no further job
// when it refused.
func (r *Runner) request(z *zygote, msg string, fds []int) (int, chan exit, error) {
	z.req.Lock()
	defer z.req.Unlock()
	if err := sendCtrl(z.ctrl, msg, fds...); err != nil {
		r.dropZygote(z)
		return 0, nil, err
	}
	var rep ctrlReply
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	select {
	case rep = <-z.replies:
	case <-z.lost:
		select {
		case rep = <-z.replies: // sent just before the server was lost
		default:
		}
	case <-timer.C:
	}
	reply := rep.msg
	pid, err := strconv.Atoi(strings.TrimPrefix(reply, "pid "))
	if strings.HasPrefix(reply, "pid ") && err == nil && rep.w != nil {
		return pid, rep.w, nil
	}
	if reply == "" {
		r.dropZygote(z)
		return 0, nil, errors.New("fork server: no reply")
	}
	r.pool.mu.Lock()
	z.retiring = true
	r.pool.mu.Unlock()
	r.releaseZygote(z, false)
	return 0, nil, fmt.Errorf("fork server: %q", reply)
}

// ctrlReply is a fork server's reply to a request, and for a "pid" reply the
// channel the child's end is told on.
type ctrlReply struct {
	msg string
	w   chan exit
}

// scratchDirs are the fork servers' scratch directories, for tests.
func (r *Runner) scratchDirs() []string {
	r.pool.mu.Lock()
	defer r.pool.mu.Unlock()
	var out []string
	for z := range r.pool.all {
		for _, d := range z.dirs() {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}
