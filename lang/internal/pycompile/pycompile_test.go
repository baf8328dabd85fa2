package pycompile

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func start(t *testing.T) *Checker {
	t.Helper()
	if _, err := exec.LookPath(DefaultPython); err != nil {
		t.Skip("python3 not on PATH")
	}
	c, err := Start(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// atLeast312 reports whether a "3.x.y" version is 3.12 or later.
func atLeast312(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	major, _ := strconv.Atoi(parts[0])
	minor, _ := strconv.Atoi(parts[1])
	return major > 3 || major == 3 && minor >= 12
}

func TestCheck(t *testing.T) {
	c := start(t)
	if c.Version == "" || c.Executable == "" {
		t.Fatalf("version %q executable %q, want both", c.Version, c.Executable)
	}
	pid := c.cmd.Process.Pid
	tests := []struct {
		name string
		src  string
		ok   bool
		line int
	}{
		{"plain function", "import requests\n\ndef f(city):\n    return requests.get('https://a.com', params={'q': city}).json()\n", true, 0},
		{"a missing colon", "def f()\n    return 1\n", false, 1},
		{"a PEP 701 f-string: valid from Python 3.12", "def f(d):\n    return f\"{d[\"name\"]}\"\n", atLeast312(c.Version), 2},
		{"python 2 print", "def f():\n    print 'x'\n", false, 2},
		{"unicode and a null byte", "def f():\n    return 'é\x00'\n", false, 0},
		{"nothing is run", "import os\nos._exit(3)\n", true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Check(context.Background(), tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK != tc.ok || (!tc.ok && tc.line != 0 && r.Line != tc.line) {
				t.Errorf("Check = %+v, want ok %v (line %d) under Python %s", r, tc.ok, tc.line, c.Version)
			}
			if !r.OK && r.Error == "" {
				t.Error("a rejected source has no error message")
			}
		})
	}
	if c.cmd.Process.Pid != pid {
		t.Errorf("the server was restarted (pid %d → %d): one process must check every source", pid, c.cmd.Process.Pid)
	}
}

func TestCheckRestartsADeadServer(t *testing.T) {
	c := start(t)
	c.cmd.Process.Kill()
	c.cmd.Wait()
	r, err := c.Check(context.Background(), "x = 1\n")
	if err != nil || !r.OK {
		t.Fatalf("Check after the server died = %+v, %v; want ok", r, err)
	}
}

func TestStartWithoutPython(t *testing.T) {
	if _, err := Start(context.Background(), "no-such-python-interpreter"); err == nil {
		t.Fatal("Start with a missing interpreter succeeded")
	}
}
