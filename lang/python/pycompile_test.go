package python

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sccg/lang"
	"strings"
	"testing"
)

// TestKeptCandidatesCompile writes the extracted code of every kept candidate of
// the corpus and of the unit fixtures to a file and compiles them all with one
// `python3 -m py_compile` run: the extracted code must stand on its own.
func TestKeptCandidatesCompile(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	dir := t.TempDir()
	names := map[string]string{} // file → function it holds
	var files []string
	add := func(origin string, res *lang.Result) {
		for _, f := range res.Functions {
			if f.Status != lang.StatusCandidate {
				continue
			}
			name := filepath.Join(dir, fmt.Sprintf("c%04d.py", len(files)))
			if err := os.WriteFile(name, []byte(f.Code), 0o644); err != nil {
				t.Fatal(err)
			}
			names[name] = origin + ":" + f.QualName
			files = append(files, name)
		}
	}
	for k, res := range extractCorpus(t) {
		add(k, res)
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "src", "*.py"))
	for _, p := range fixtures {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Extract(context.Background(), b, Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		add(p, res)
	}
	if len(files) == 0 {
		t.Fatal("no kept candidates to compile")
	}
	cmd := exec.Command(py, append([]string{"-m", "py_compile"}, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := string(out)
		for f, fn := range names {
			msg = strings.ReplaceAll(msg, f, fn)
		}
		t.Errorf("py_compile failed on extracted code: %v\n%s", err, msg)
	}
	t.Logf("%d kept candidates compile", len(files))
}
