package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// spin keeps its child busy for about the CPU seconds given, then sends a request.
func spin(seconds string) string {
	return "import time, requests\nt = time.process_time()\nwhile time.process_time() - t < " + seconds +
		":\n    pass\nrequests.get('https://spun.example.com/')\n"
}

// spoil leaves its scratch directory as nothing the fork server can empty: a file.
const spoil = "import os\nd = os.getcwd()\nos.remove('input.txt')\nos.rmdir(d)\nopen(d, 'w').write('x')\n"

// newUnbatched is a fork-server runner whose every run has a child of its own.
func newUnbatched(t *testing.T, l Limits) *Runner {
	t.Helper()
	r, err := New(context.Background(), Options{Limits: l, ScratchDir: t.TempDir(), NoBatch: true})
	if err != nil {
		t.Skipf("no python sandbox here: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// runAsync runs code on r in the background; the result comes on the channel.
func runAsync(r *Runner, code string) <-chan Result {
	out := make(chan Result, 1)
	go func() {
		res, err := r.Run(context.Background(), code, "")
		if err != nil {
			res.Status, res.Reason = "", err.Error()
		}
		out <- res
	}()
	return out
}

// childrenOf waits until the light fork servers (whose children are not batch
// children) have n children alive in all, and says whether they did within a
// minute.
func childrenOf(r *Runner, n int) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		alive := 0
		r.pool.mu.Lock()
		for z := range r.pool.all {
			if z.batch {
				continue
			}
			z.mu.Lock()
			alive += len(z.waiters)
			z.mu.Unlock()
		}
		r.pool.mu.Unlock()
		if alive >= n {
			return true
		}
	}
	return false
}

func started(r *Runner) (light, batches int) {
	r.pool.mu.Lock()
	defer r.pool.mu.Unlock()
	return r.pool.started[0], r.pool.started[1]
}

// TestForkServerServesSeveral: one fork server has several children alive at
// once, and each child's end reaches its own run as it comes, whatever the order
// the children started in.
func TestForkServerServesSeveral(t *testing.T) {
	r := newUnbatched(t, Limits{Timeout: 20 * time.Second})
	slow := runAsync(r, spin("1.5"))
	if !childrenOf(r, 1) {
		t.Fatal("the slow child never started")
	}
	quick, err := r.Run(context.Background(), goodCode, "get_weather")
	if err != nil || quick.Status != StatusOK || len(quick.Requests) != 1 {
		t.Fatalf("quick run beside a slow one: %s %s %+v %v", quick.Status, quick.Reason, quick.Requests, err)
	}
	select {
	case res := <-slow:
		t.Fatalf("the slow run ended before the quick one: %s %s", res.Status, res.Reason)
	default:
	}
	if res := <-slow; res.Status != StatusOK || len(res.Requests) != 1 {
		t.Errorf("slow run: %s %s %+v", res.Status, res.Reason, res.Requests)
	}
	if light, batches := started(r); light != 1 || batches != 0 {
		t.Errorf("fork servers started: %d light, %d of batches; want one light", light, batches)
	}
	if dirs := r.scratchDirs(); len(dirs) != 2 {
		t.Errorf("scratch directories %q: want the server's first and one beside it", dirs)
	}
}

// TestForkServerCap: past serverChildren children at once, another server of the
// kind starts, and both serve.
func TestForkServerCap(t *testing.T) {
	defer func(n int) { serverChildren = n }(serverChildren)
	serverChildren = 1
	r := newUnbatched(t, Limits{Timeout: 20 * time.Second})
	slow := runAsync(r, spin("1"))
	if !childrenOf(r, 1) {
		t.Fatal("the slow child never started")
	}
	if res, err := r.Run(context.Background(), goodCode, "get_weather"); err != nil || res.Status != StatusOK {
		t.Fatalf("second run: %s %s %v", res.Status, res.Reason, err)
	}
	if res := <-slow; res.Status != StatusOK {
		t.Errorf("slow run: %s %s", res.Status, res.Reason)
	}
	if light, _ := started(r); light != 2 {
		t.Errorf("%d light fork servers started, want 2", light)
	}
}

// TestDirtyScratchRetiresServer: a child that leaves its directory in a state the
// server cannot empty it from retires its server: the other child alive runs to
// its end there, the next run goes to a new server (in a clean directory), and
// the retired server is gone once its last child is.
func TestDirtyScratchRetiresServer(t *testing.T) {
	r := newUnbatched(t, Limits{Timeout: 20 * time.Second})
	r.pool.mu.Lock()
	var first *zygote
	for z := range r.pool.all {
		first = z
	}
	r.pool.mu.Unlock()
	slow := runAsync(r, spin("1.5"))
	if !childrenOf(r, 1) {
		t.Fatal("the slow child never started")
	}
	if res, err := r.Run(context.Background(), spoil, ""); err != nil || res.Status != StatusOK {
		t.Fatalf("spoiling run: %s %s %v", res.Status, res.Reason, err)
	}
	if res, err := r.Run(context.Background(), "import os, requests\nrequests.get('https://x.example.com/' + ','.join(sorted(os.listdir('.'))))\n", ""); err != nil ||
		res.Status != StatusOK || len(res.Requests) != 1 || res.Requests[0].URL != "https://x.example.com/input.txt" {
		t.Fatalf("run after the spoiling one: %s %s %+v %v", res.Status, res.Reason, res.Requests, err)
	}
	if light, _ := started(r); light != 2 {
		t.Errorf("%d light fork servers started, want 2", light)
	}
	select {
	case <-first.done:
		t.Error("the retired server ended before its last child")
	default:
	}
	if res := <-slow; res.Status != StatusOK || len(res.Requests) != 1 {
		t.Errorf("the slow child of the retired server: %s %s %+v", res.Status, res.Reason, res.Requests)
	}
	select {
	case <-first.done:
	case <-time.After(time.Minute):
		t.Fatal("the retired server lives on after its last child")
	}
	if st := r.BatchStats(); st.ServersRetired != 1 {
		t.Errorf("servers retired: %d, want 1", st.ServersRetired)
	}
	r.pool.mu.Lock()
	_, kept := r.pool.all[first]
	r.pool.mu.Unlock()
	if kept {
		t.Error("the retired server is still in the pool")
	}
}

// TestServerKilledWithChildrenAlive: the runs whose server is killed under them
// end as crashes, their children killed, and the next runs start a new server.
func TestServerKilledWithChildrenAlive(t *testing.T) {
	r := newTestRunner(t, Limits{Timeout: 20 * time.Second}, true)
	ctx := context.Background()
	if res, err := r.Run(ctx, goodCode, "get_weather"); err != nil || res.Placement != PlacedBatch {
		t.Fatalf("first run: placed %q, %v", res.Placement, err)
	}
	a, b := runAsync(r, "import subprocess\n"+spin("30")), runAsync(r, "import subprocess\n"+spin("30"))
	if !childrenOf(r, 2) {
		t.Fatal("the children never started")
	}
	var pids []int
	r.pool.mu.Lock()
	for z := range r.pool.all {
		if !z.batch {
			z.mu.Lock()
			for pid := range z.waiters {
				pids = append(pids, pid)
			}
			z.mu.Unlock()
			z.cmd.Process.Kill()
		}
	}
	r.pool.mu.Unlock()
	if len(pids) != 2 {
		t.Fatalf("children of the light server: %v, want 2", pids)
	}
	for _, ch := range []<-chan Result{a, b} {
		select {
		case res := <-ch:
			if res.Status != StatusCrash || !strings.Contains(res.Reason, "lost the child") {
				t.Errorf("run whose server was killed: %s %s", res.Status, res.Reason)
			}
		case <-time.After(time.Minute):
			t.Fatal("a run whose server was killed still waits after a minute")
		}
	}
	for _, pid := range pids {
		if !gone(pid, 10*time.Second) {
			t.Errorf("child %d lives on after its server was killed", pid)
		}
	}
	for _, code := range []string{"import subprocess\n", goodCode} {
		if res, err := r.Run(ctx, code, ""); err != nil || res.Status != StatusOK {
			t.Errorf("run after the server was killed: %s %s %v", res.Status, res.Reason, err)
		}
	}
	if light, batches := started(r); light != 2 || batches != 1 {
		t.Errorf("fork servers started: %d light, %d of batches; want 2 and 1", light, batches)
	}
}

// gone says whether process pid is gone (or a zombie) within d.
func gone(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return true
		}
	}
	return false
}

// TestChildEndsBeforeItsPidIsRead: a child may end, and its server say so,
// before the run that asked for it has read its pid; its end still reaches the
// run (it once went to a waiter the run then could not find, and the run waited
// for ever).
func TestChildEndsBeforeItsPidIsRead(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		t.Fatal(err)
	}
	ours, server := os.NewFile(uintptr(fds[0]), "ctrl"), os.NewFile(uintptr(fds[1]), "server")
	defer server.Close()
	// a stand-in for the server's process, which dropping the server kills
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep here: %v", err)
	}
	r := &Runner{}
	z := &zygote{cmd: cmd, ctrl: ours, scratch: filepath.Join(t.TempDir(), "scratch"), done: make(chan struct{}),
		replies: make(chan ctrlReply, 1), lost: make(chan struct{}), waiters: map[int]chan exit{}, max: 1, busy: 1}
	r.pool.all = map[*zygote]bool{z: true}
	go func() {
		cmd.Wait()
		close(z.done)
	}()
	defer r.closeZygotes()
	// the server forked the child and the child ended, both said at once
	for _, m := range []string{"pid 4242", "status 4242 0 10"} {
		if _, err := server.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	go r.readZygote(z)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		z.mu.Lock()
		n := len(z.waiters)
		z.mu.Unlock()
		if n == 0 && len(z.replies) == 1 {
			break // both read: the waiter came and went before the run asked
		}
		if time.Now().After(deadline) {
			t.Fatal("the server's two messages were not read")
		}
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	pid, w, err := r.request(z, "job", []int{int(null.Fd())})
	if err != nil || pid != 4242 {
		t.Fatalf("request: pid %d, %v", pid, err)
	}
	select {
	case ex := <-w:
		if ex.cpu != 10*time.Microsecond {
			t.Errorf("the child's end: %+v", ex)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the child's end never reached its run")
	}
}
