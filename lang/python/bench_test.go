package python

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"sccg/lang"
	"strconv"
	"strings"
	"testing"
	"time"
)

// minified returns about size bytes of minified-looking Python (one very long
// line of statements) with one request function at the end.
func minified(size int) []byte {
	var b bytes.Buffer
	b.WriteString("import requests\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "v%d=[%d,{'k':'%x'}];", i, i, i)
	}
	b.WriteString("pass\nHOST='w.p.rapidapi.com'\ndef fetch(p):\n    return requests.get('https://'+HOST+p).json()\n")
	return b.Bytes()
}

func TestLargeMinifiedFile(t *testing.T) {
	src := minified(2 << 20)
	start := time.Now()
	res, err := Extract(context.Background(), src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Functions) != 1 || res.Functions[0].Facts.Calls[0].Host != "w.p.rapidapi.com" {
		t.Fatalf("got %+v, want fetch calling w.p.rapidapi.com", res.Functions)
	}
	t.Logf("2 MB minified file: %s", time.Since(start))
}

// BenchmarkExtractCorpus extracts every file of the shared corpus; it reports
// files/s, MB/s, the peak Go heap and the process's peak resident set size
// (tree-sitter allocates outside the Go heap).
func BenchmarkExtractCorpus(b *testing.B) {
	var files [][]byte
	total := 0
	for _, f := range corpusFiles(b) {
		c, err := os.ReadFile(f.abs)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, c)
		total += len(c)
	}
	benchExtract(b, files, total)
}

// BenchmarkExtractLarge extracts one 2 MB minified file.
func BenchmarkExtractLarge(b *testing.B) {
	src := minified(2 << 20)
	benchExtract(b, [][]byte{src}, len(src))
}

func benchExtract(b *testing.B, files [][]byte, total int) {
	ctx := context.Background()
	var peak uint64
	// runtime/metrics reads the heap size without stopping the world, unlike
	// runtime.ReadMemStats, so sampling it per file barely disturbs the timing
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range files {
			if _, err := Extract(ctx, c, Options{}); err != nil && err != lang.ErrBinary {
				b.Fatal(err)
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak {
				peak = v
			}
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(files)*b.N)/secs, "files/s")
	b.ReportMetric(float64(total*b.N)/secs/1e6, "MB/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	if rss := peakRSS(); rss > 0 {
		b.ReportMetric(rss, "peak-rss-MB")
	}
}

// peakRSS reads VmHWM from /proc/self/status, in MB; 0 when unavailable.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

// sdkClass returns a generated API client class with n request methods sharing
// one session, the shape of generated SDKs.
func sdkClass(n int) []byte {
	var b bytes.Buffer
	b.WriteString("import requests\n\n\nclass Api:\n    def __init__(self, key):\n        self.session = requests.Session()\n" +
		"        self.session.headers.update({'x-rapidapi-key': key, 'x-rapidapi-host': 'big.p.rapidapi.com'})\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n    def op%d(self, a, b=None):\n        \"\"\"Operation %d.\"\"\"\n        params = {'a': a, 'b': b, 'n': %d}\n"+
			"        r = self.session.get('https://big.p.rapidapi.com/v1/op%d/' + str(a), params=params)\n"+
			"        r.raise_for_status()\n        return r.json()\n", i, i, i, i)
	}
	return b.Bytes()
}

// BenchmarkExtractSDKClass extracts a 1,500-method generated client class: every
// method is a candidate whose code is the class reduced to it.
func BenchmarkExtractSDKClass(b *testing.B) {
	src := sdkClass(1500)
	benchExtract(b, [][]byte{src}, len(src))
}
