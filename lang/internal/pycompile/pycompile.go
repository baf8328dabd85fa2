// Package pycompile judges Python source as the evaluator's interpreter does. One
// python3 process compiles many sources in turn (compile(…, "exec"), which runs
// nothing), so code that tree-sitter parses but that interpreter rejects — a PEP
// 701 f-string of Python 3.12 under 3.11 — is found without a process per function.
package pycompile

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"sync"
)

//go:embed checker.py
var server string

// DefaultPython is the interpreter the evaluator runs when none is named.
const DefaultPython = "python3"

// Result is the interpreter's judgement of one source.
type Result struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"` // "SyntaxError: f-string: expecting '}'"
	Line  int    `json:"line,omitempty"`  // 1-based line of the error in the source, 0 when unknown
}

// Checker is one running compile server. It is safe for concurrent use: sources
// are checked one at a time.
type Checker struct {
	python string
	// Version is the interpreter's version ("3.11.4") and Executable its path.
	Version    string
	Executable string

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
}

// Start starts the compile server on python ("" means DefaultPython on PATH).
func Start(ctx context.Context, python string) (*Checker, error) {
	if python == "" {
		python = DefaultPython
	}
	c := &Checker{python: python}
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Checker) start(ctx context.Context) error {
	path, err := exec.LookPath(c.python)
	if err != nil {
		return fmt.Errorf("pycompile: %w", err)
	}
	cmd := exec.CommandContext(ctx, path, "-I", "-S", "-B", "-c", server)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("pycompile: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("pycompile: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pycompile: start %s: %w", path, err)
	}
	c.cmd, c.stdin, c.stdout = cmd, stdin, bufio.NewReader(stdout)
	line, err := c.stdout.ReadBytes('\n')
	var hello struct{ Version, Executable string }
	if err == nil {
		err = json.Unmarshal(line, &hello)
	}
	if err != nil || hello.Version == "" {
		c.stop()
		return fmt.Errorf("pycompile: %s did not start the compile server: %v", path, err)
	}
	c.Version, c.Executable = hello.Version, hello.Executable
	return nil
}

// Check compiles src. When the server died on the previous source, it is started
// again once; an error means the source could not be judged.
func (c *Checker) Check(ctx context.Context, src string) (Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, err := c.check(src)
	if err != nil && ctx.Err() == nil {
		c.stop()
		if err = c.start(ctx); err == nil {
			r, err = c.check(src)
		}
	}
	return r, err
}

func (c *Checker) check(src string) (Result, error) {
	if c.cmd == nil {
		return Result{}, errors.New("pycompile: the compile server is not running")
	}
	if _, err := io.WriteString(c.stdin, strconv.Itoa(len(src))+"\n"+src); err != nil {
		return Result{}, fmt.Errorf("pycompile: send: %w", err)
	}
	line, err := c.stdout.ReadBytes('\n')
	if err != nil {
		return Result{}, fmt.Errorf("pycompile: read: %w", err)
	}
	var r Result
	if err := json.Unmarshal(line, &r); err != nil {
		return Result{}, fmt.Errorf("pycompile: answer %q: %w", line, err)
	}
	return r, nil
}

// Close stops the server.
func (c *Checker) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop()
	return nil
}

func (c *Checker) stop() {
	if c.cmd == nil {
		return
	}
	c.stdin.Close()
	if c.cmd.Process != nil {
		c.cmd.Process.Kill()
	}
	c.cmd.Wait()
	c.cmd = nil
}
