package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// nsProbe is a completion that looks at its own network from inside: its network
// and IPC namespace ids, whether the test's listening sockets (an abstract unix
// socket and a TCP port on 127.0.0.1) are visible in its /proc/self/net tables,
// and whether it can connect to the abstract socket. It spins for a while first so
// that concurrent runs overlap (a namespace id is only unique while it lives), and
// reports all of it in the URL of one request.
const nsProbe = `import os, socket, time, urllib.parse, requests
t0 = time.monotonic()
while time.monotonic() - t0 < 1.0:
    pass
def seen(table, needle):
    try:
        return needle in open('/proc/self/net/' + table).read()
    except Exception as e:
        return 'err-' + type(e).__name__
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect('\0' + ABSTRACT)
    connected = 'yes'
except Exception as e:
    connected = 'no-' + type(e).__name__
requests.get('https://ns.example.com/probe?' + urllib.parse.urlencode({
    'net': os.readlink('/proc/self/ns/net'), 'ipc': os.readlink('/proc/self/ns/ipc'),
    'unix': seen('unix', '@' + ABSTRACT), 'tcp': seen('tcp', PORTHEX), 'connected': connected}))
`

// TestChildrenHaveOwnNetwork: no run is in the evaluator's network namespace, so
// its loopback listeners are out of reach even before the audit hook (which
// refuses the connect anyway) comes in. An exec'd run has a namespace of its own;
// a fork server's children share the server's, made once for the whole pool (a
// sibling is kept out by the hook: bind, connect and sendto are refused, see the
// hostile suite).
func TestChildrenHaveOwnNetwork(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(mode(warm), func(t *testing.T) { testChildrenHaveOwnNetwork(t, warm) })
	}
}

func testChildrenHaveOwnNetwork(t *testing.T, warm bool) {
	r := newTestRunner(t, Limits{Timeout: 15 * time.Second}, warm)
	if !r.NetworkNamespace() {
		t.Skipf("no network namespaces here: %s", r.Isolation())
	}
	var nb [8]byte
	rand.Read(nb[:])
	abstract := "sccg-ns-test-" + hex.EncodeToString(nb[:])
	ul, err := net.Listen("unix", "@"+abstract)
	if err != nil {
		t.Fatal(err)
	}
	defer ul.Close()
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	var mu sync.Mutex
	accepted := 0
	for _, l := range []net.Listener{ul, tl} {
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				accepted++
				mu.Unlock()
				c.Close()
			}
		}()
	}
	// /proc/net/tcp lists local addresses as hex IP:PORT; 0100007F is 127.0.0.1.
	portHex := fmt.Sprintf("0100007F:%04X", tl.Addr().(*net.TCPAddr).Port)
	// The check must be able to fail: the evaluator's own tables show both sockets.
	for table, needle := range map[string]string{"unix": "@" + abstract, "tcp": portHex} {
		b, err := os.ReadFile("/proc/self/net/" + table)
		if err != nil || !strings.Contains(string(b), needle) {
			t.Fatalf("the test cannot see its own %s listener %s in /proc/self/net/%s: %v", table, needle, table, err)
		}
	}
	own, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	code := fmt.Sprintf("ABSTRACT = %q\nPORTHEX = %q\n", abstract, portHex) + nsProbe

	const n = 3
	results := make([]Result, n)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := r.Run(context.Background(), code, "")
			if err != nil {
				t.Errorf("run %d: %v", i, err)
			}
			results[i] = res
		}()
	}
	// While the probes spin, and once they are done (a batching runner starts a
	// server for the probes that a batch does not take): the fork servers' own
	// network namespaces.
	servers := map[string]bool{}
	forkServers := func() {
		r.pool.mu.Lock()
		defer r.pool.mu.Unlock()
		for z := range r.pool.all {
			if ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", z.cmd.Process.Pid)); err == nil {
				servers[ns] = true
			}
		}
	}
	if warm {
		time.Sleep(300 * time.Millisecond)
		forkServers()
	}
	wg.Wait()
	if warm {
		forkServers()
		if len(servers) == 0 {
			t.Error("no fork server found")
		}
	}

	nets := map[string]int{}
	for i, res := range results {
		if len(res.Requests) != 1 {
			t.Fatalf("run %d: %s %s, requests %+v, stderr %s", i, res.Status, res.Reason, res.Requests, res.Stderr)
		}
		u, err := url.Parse(res.Requests[0].URL)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		ns := q.Get("net")
		if !strings.HasPrefix(ns, "net:[") || ns == own || warm && !servers[ns] {
			t.Errorf("run %d: network namespace %q (evaluator %s, fork servers %v)", i, ns, own, servers)
		}
		nets[ns]++
		if q.Get("unix") != "False" || q.Get("tcp") != "False" {
			t.Errorf("run %d sees the evaluator's listeners: unix %s, tcp %s", i, q.Get("unix"), q.Get("tcp"))
		}
		if !strings.HasPrefix(q.Get("connected"), "no-") {
			t.Errorf("run %d connected to the evaluator's abstract socket: %s", i, q.Get("connected"))
		}
	}
	if !warm && len(nets) != n {
		t.Errorf("%d concurrent exec'd runs shared network namespaces: %v", n, nets)
	}
	mu.Lock()
	defer mu.Unlock()
	if accepted != 0 {
		t.Errorf("%d connections reached the evaluator's listeners", accepted)
	}
}
