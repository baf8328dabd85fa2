package javascript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/metrics"
	"sort"
	"testing"
	"time"

	"sccg/lang"
)

// minified returns about size bytes of minified-looking JavaScript (one very long
// line, the shape of a bundle) with one request function at the end.
func minified(size int) []byte {
	var b bytes.Buffer
	b.WriteString("import axios from 'axios';\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "var v%d=[%d,{k:'%x'}],f%d=function(a){return a+v%d[0]};", i, i, i, i, i)
	}
	b.WriteString("\nconst HOST='w.p.rapidapi.com';\nexport function get(p){return axios.get('https://'+HOST+p).then(r=>r.data)}\n")
	return b.Bytes()
}

func TestLargeMinifiedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("2 MB parse in -short")
	}
	src := minified(2 << 20)
	start := time.Now()
	// what is tested is that the file is handled, not how fast a shared machine
	// parses it (the deadline is tested in TestBinaryAndTimeout)
	res, err := Extract(context.Background(), src, Options{Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Functions) != 1 || res.Functions[0].Facts.Calls[0].Host != "w.p.rapidapi.com" {
		t.Fatalf("got %+v, want get calling w.p.rapidapi.com", res.Functions)
	}
	t.Logf("2 MB minified file: %s", time.Since(start))
}

func TestBinaryAndTimeout(t *testing.T) {
	if _, err := Extract(context.Background(), []byte("\x00\x01fetch('x')"), Options{}); !errors.Is(err, lang.ErrBinary) {
		t.Errorf("binary: err = %v, want ErrBinary", err)
	}
	_, err := Extract(context.Background(), minified(4<<20), Options{Timeout: time.Millisecond})
	if !errors.Is(err, lang.ErrTimeout) {
		t.Errorf("1 ms for 4 MB: err = %v, want ErrTimeout", err)
	}
	res, err := Extract(context.Background(), []byte("// caf\xe9\nfunction f() { return fetch('https://x.example.com/a'); }\n"), Options{})
	if err != nil || res.Encoding != "latin-1" || len(res.Functions) != 1 {
		t.Errorf("latin-1 file: %+v, %v", res, err)
	}
}

// benchFiles are the fixture corpus and the JavaScript and TypeScript files of
// the shared synthetic GitHub corpus, when it has any.
func benchFiles(b *testing.B) (files [][]byte, dialects []lang.Dialect, total int) {
	var paths []string
	paths = append(paths, fixtures(b)...)
	shared := filepath.Join("..", "internal", "replay", "testdata", "github", "repos")
	_ = filepath.WalkDir(shared, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if n, _, ok := lang.ForPath(p); ok && n.Family() == lang.JavaScript {
				paths = append(paths, p)
			}
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		c, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		_, d, _ := lang.ForPath(p)
		files, dialects = append(files, c), append(dialects, d)
		total += len(c)
	}
	return files, dialects, total
}

// BenchmarkExtractCorpus extracts every JavaScript and TypeScript file of the
// corpora; it reports files/s, MB/s and the peak Go heap (compare lang/python's
// BenchmarkExtractCorpus).
func BenchmarkExtractCorpus(b *testing.B) {
	files, dialects, total := benchFiles(b)
	benchExtract(b, files, dialects, total)
}

// BenchmarkExtractLarge extracts one 2 MB minified file.
func BenchmarkExtractLarge(b *testing.B) {
	src := minified(2 << 20)
	benchExtract(b, [][]byte{src}, []lang.Dialect{lang.DialectJS}, len(src))
}

func benchExtract(b *testing.B, files [][]byte, dialects []lang.Dialect, total int) {
	ctx := context.Background()
	var peak uint64
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, c := range files {
			if _, err := Extract(ctx, c, Options{Dialect: dialects[k], Timeout: time.Minute}); err != nil && !errors.Is(err, lang.ErrBinary) {
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
}
