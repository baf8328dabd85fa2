package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strconv"

	"sccg/store"
)

// Source is where in the corpus a record came from.
type Source struct {
	Shard   string `json:"shard"` // relative to the corpus root
	Row     int64  `json:"row"`
	BlobID  string `json:"blob_id,omitempty"`
	License string `json:"license,omitempty"`
}

func (s Source) key() string { return s.Shard + "\x00" + fmt.Sprintf("%012d", s.Row) }

// Hit is one target a found file calls, with the strongest evidence the filter
// found and the query of that layer (as mine --local names it).
type Hit struct {
	APIID      int64  `json:"api_id"`
	API        string `json:"api"`
	Host       string `json:"host"`
	MatchLayer string `json:"match_layer"`
	Query      string `json:"query"`
}

// Found is a file that passed the early filter, with everything the store keeps of
// it.
type Found struct {
	Repo    store.Repository `json:"repo"`
	Path    string           `json:"path"`
	GitSHA  string           `json:"git_sha"`
	Commit  string           `json:"commit,omitempty"`
	URL     string           `json:"url"`
	Size    int64            `json:"size"`
	Content []byte           `json:"content"`
	Hits    []Hit            `json:"hits"`
	Source  Source           `json:"source"`
	// LineDates are the row's line dates (package blame's JSON), "" when the
	// shard carries none.
	LineDates string `json:"line_dates,omitempty"`
}

// Decision is a decision on a row the filter could not pass: a corrupt row, or a
// file that names a target but is binary or too large.
type Decision struct {
	SubjectKind string         `json:"subject_kind"`
	Subject     string         `json:"subject"`
	Verdict     string         `json:"verdict"`
	Reason      string         `json:"reason"`
	Evidence    map[string]any `json:"evidence,omitempty"`
	Source      Source         `json:"source"`
}

// Record is one line of an output shard: a found file or a decision. Key orders
// the records of a shard, so a shard's bytes depend only on what is in it.
type Record struct {
	Key      string    `json:"key"`
	File     *Found    `json:"file,omitempty"`
	Decision *Decision `json:"decision,omitempty"`
}

// Encode is r as one JSON line.
func (r *Record) Encode() ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode record %q: %w", r.Key, err)
	}
	return append(b, '\n'), nil
}

// DecodeRecord reads one JSON line written by Encode.
func DecodeRecord(line []byte) (*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("decode record: %w", err)
	}
	if (r.File == nil) == (r.Decision == nil) {
		return nil, fmt.Errorf("decode record %q: want a file or a decision", r.Key)
	}
	return &r, nil
}

// ShardOf is the output shard (of n) a record key goes to.
func ShardOf(key string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

// OutputName is the file name of output shard i of n.
func OutputName(i, n int) string {
	return fmt.Sprintf("part-%05d-of-%05d.jsonl.gz", i, n)
}

// OutputShard is one written output shard as the manifest lists it.
type OutputShard struct {
	Name    string `json:"name"`
	SHA256  string `json:"sha256"`
	Records int    `json:"records"`
}

// WriteOutput writes encoded records (one JSON line each) to w as a gzipped shard,
// in key order, and describes it. The bytes written depend only on the records.
func WriteOutput(w io.Writer, name string, lines [][]byte) (OutputShard, error) {
	type keyed struct {
		key  string
		line []byte
	}
	ks := make([]keyed, 0, len(lines))
	for _, l := range lines {
		var k struct {
			Key string `json:"key"`
		}
		if err := json.Unmarshal(l, &k); err != nil {
			return OutputShard{}, fmt.Errorf("write %s: %w", name, err)
		}
		ks = append(ks, keyed{k.Key, l})
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].key != ks[j].key {
			return ks[i].key < ks[j].key
		}
		return bytes.Compare(ks[i].line, ks[j].line) < 0
	})
	h := sha256.New()
	zw := gzip.NewWriter(io.MultiWriter(w, h))
	for _, k := range ks {
		if _, err := zw.Write(k.line); err != nil {
			return OutputShard{}, fmt.Errorf("write %s: %w", name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return OutputShard{}, fmt.Errorf("write %s: %w", name, err)
	}
	return OutputShard{Name: name, SHA256: hex.EncodeToString(h.Sum(nil)), Records: len(ks)}, nil
}

// ReadOutput decodes every record of an output shard.
func ReadOutput(data []byte) ([]*Record, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	var out []*Record
	br := bufio.NewReaderSize(zr, 1<<20)
	for n := 1; ; n++ {
		line, tooLong, err := readLine(br, MaxRowBytes*2)
		if tooLong {
			return nil, fmt.Errorf("record %d: too long", n)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			r, derr := DecodeRecord(line)
			if derr != nil {
				return nil, fmt.Errorf("record %d: %w", n, derr)
			}
			out = append(out, r)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", n, err)
		}
	}
}

// ShardStats count what reading one corpus shard found.
type ShardStats struct {
	Shard    string `json:"shard"`
	Rows     int64  `json:"rows"`
	Found    int64  `json:"found"`
	Rejected int64  `json:"rejected"`
	Corrupt  int64  `json:"corrupt"`
	Bytes    int64  `json:"bytes"`
	Error    string `json:"error,omitempty"` // why reading stopped early
}

// Add counts one judged row.
func (s *ShardStats) Add(row Row, verdict string) {
	s.Rows++
	s.Bytes += int64(len(row.Content))
	switch verdict {
	case VerdictFound:
		s.Found++
	case VerdictRejected:
		s.Rejected++
	case VerdictCorrupt:
		s.Corrupt++
	}
}

// ShardFailure is the decision recorded when a corpus shard cannot be read (to
// the end): the rows before the fault were judged.
func ShardFailure(shard string, rows int64, err error) *Record {
	return &Record{Key: "d\x00" + shard + "\x00failure", Decision: &Decision{SubjectKind: "corpus_shard", Subject: shard,
		Verdict: store.Failed, Reason: "unreadable shard", Evidence: map[string]any{"error": err.Error(), "rows_read": rows},
		Source: Source{Shard: shard, Row: rows}}}
}

// Manifest is written last by a pipeline run: the outputs it wrote, what it read,
// and what it was run with. Load takes only outputs a manifest lists.
type Manifest struct {
	Corpus    string           `json:"corpus"` // the corpus as given, local directories by their base name
	Format    string           `json:"format,omitempty"`
	CreatedAt string           `json:"created_at"` // when the job was submitted; files are stamped with it
	Filter    FilterOptions    `json:"filter"`
	APIs      []ManifestAPI    `json:"apis"`
	Inputs    []ShardStats     `json:"inputs"`
	Outputs   []OutputShard    `json:"outputs"`
	Counts    map[string]int64 `json:"counts"`
}

// ManifestAPI names one target the job mined for, so Load can check it loads into
// a store with the same APIs.
type ManifestAPI struct {
	ID   int64  `json:"id"`
	Slug string `json:"slug"`
}

// ManifestName is the manifest's file name in an output directory.
const ManifestName = "manifest.json"

// Finish sorts the manifest's lists and adds up its counts.
func (m *Manifest) Finish() {
	sort.Slice(m.Inputs, func(i, j int) bool { return m.Inputs[i].Shard < m.Inputs[j].Shard })
	sort.Slice(m.Outputs, func(i, j int) bool { return m.Outputs[i].Name < m.Outputs[j].Name })
	m.Counts = map[string]int64{"input_shards": int64(len(m.Inputs)), "output_shards": int64(len(m.Outputs))}
	for _, in := range m.Inputs {
		m.Counts["rows"] += in.Rows
		m.Counts["found"] += in.Found
		m.Counts["rejected"] += in.Rejected
		m.Counts["corrupt"] += in.Corrupt
		m.Counts["bytes"] += in.Bytes
		if in.Error != "" {
			m.Counts["unreadable_shards"]++
		}
	}
	for _, o := range m.Outputs {
		m.Counts["records"] += int64(o.Records)
	}
}

// APIsOf lists targets for the manifest.
func APIsOf(ts []Target) []ManifestAPI {
	out := make([]ManifestAPI, len(ts))
	for i, t := range ts {
		out[i] = ManifestAPI{ID: t.APIID, Slug: t.Slug}
	}
	return out
}

// rowSubject names a row in decisions.
func rowSubject(shard string, row int64) string { return shard + "#" + strconv.FormatInt(row, 10) }
