package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Format is how a shard is encoded.
type Format string

// Formats.
const (
	Parquet Format = "parquet"
	JSONL   Format = "jsonl"
)

// FormatOf tells a shard's format from its name: .parquet, or .jsonl, .ndjson or
// .json, each optionally gzipped (.gz).
func FormatOf(name string) (Format, error) {
	ext := path.Ext(strings.TrimSuffix(strings.ToLower(name), ".gz"))
	switch ext {
	case ".parquet":
		return Parquet, nil
	case ".jsonl", ".ndjson", ".json":
		return JSONL, nil
	}
	return "", fmt.Errorf("shard %s: cannot tell its format from the name (want .parquet or .jsonl; or give the format)", name)
}

// ParseFormat checks a format name given by a user.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case Parquet, JSONL:
		return f, nil
	}
	return "", fmt.Errorf("unknown corpus format %q (want parquet or jsonl)", s)
}

// RowFunc receives each row of a shard with its 0-based index in the shard. bad is
// set, and row partial, when the row cannot be used: it names what is wrong.
type RowFunc func(index int64, row Row, bad string) error

// MaxRowBytes bounds one JSONL row; a longer line is reported bad and skipped.
const MaxRowBytes = 256 << 20

// Read reads every row of one shard named name from r (of size bytes when known).
// A row that cannot be decoded is handed to fn as bad and the shard goes on; the
// error is for a shard that cannot be read at all or stops being readable (after
// the rows before the fault were delivered), for fn's error and for ctx's.
func Read(ctx context.Context, format Format, name string, r io.Reader, size int64, fn RowFunc) error {
	switch format {
	case Parquet:
		ra, ok := r.(io.ReaderAt)
		if !ok || size <= 0 {
			b, err := io.ReadAll(r)
			if err != nil {
				return fmt.Errorf("read %s: %w", name, err)
			}
			ra, size = bytes.NewReader(b), int64(len(b))
		}
		return ReadParquet(ctx, ra, size, fn)
	case JSONL:
		if strings.HasSuffix(strings.ToLower(name), ".gz") {
			zr, err := gzip.NewReader(r)
			if err != nil {
				return fmt.Errorf("read %s: %w", name, err)
			}
			defer zr.Close()
			r = zr
		}
		return ReadJSONL(ctx, r, fn)
	}
	return fmt.Errorf("read %s: unknown format %q", name, format)
}

// leaf is what one Parquet leaf column feeds.
type leaf struct {
	field field
	unit  time.Duration // for a timestamp column, the unit of its values
}

// ReadParquet reads every row of a Parquet file, row group by row group. A row
// group that fails to decode is reported once, as a bad row at the first row not
// delivered, and reading goes on with the next group.
func ReadParquet(ctx context.Context, r io.ReaderAt, size int64, fn RowFunc) error {
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return fmt.Errorf("open parquet: %w", err)
	}
	schema := f.Schema()
	top := map[string]bool{}
	for _, fl := range schema.Fields() {
		top[fl.Name()] = true
	}
	names := pick(func(n string) bool { return top[n] })
	leaves := map[int]leaf{}
	for i, p := range schema.Columns() {
		for fd, n := range names {
			if n == "" || len(p) == 0 || p[0] != n {
				continue
			}
			l := leaf{field: field(fd)}
			if lc, ok := schema.Lookup(p...); ok {
				if lt := lc.Node.Type().LogicalType(); lt != nil {
					if ts, ok := lt.Value.(*format.TimestampType); ok && ts.Unit.Value != nil {
						l.unit = ts.Unit.Value.Duration()
					}
				}
			}
			leaves[i] = l
		}
	}
	hasURL := names[fRepoURL] != ""
	var base int64
	buf := make([]parquet.Row, 16)
	for g, rg := range f.RowGroups() {
		n := rg.NumRows()
		rows := rg.Rows()
		var done int64
		for done < n {
			if err := ctx.Err(); err != nil {
				rows.Close()
				return err
			}
			k, rerr := rows.ReadRows(buf)
			if k == 0 && rerr == nil {
				rerr = errors.New("the reader made no progress")
			}
			for _, pr := range buf[:k] {
				row := parquetRow(pr, leaves)
				row.HasRepoURL = hasURL
				bad := ""
				if p := row.problem(); p != "" {
					bad = "corrupt row: " + p
				}
				if err := fn(base+done, row, bad); err != nil {
					rows.Close()
					return err
				}
				done++
			}
			if rerr != nil {
				if !errors.Is(rerr, io.EOF) || done < n {
					msg := "unreadable row group " + strconv.Itoa(g)
					if !errors.Is(rerr, io.EOF) {
						msg += ": " + rerr.Error()
					}
					if err := fn(base+done, Row{}, msg); err != nil {
						rows.Close()
						return err
					}
				}
				break
			}
		}
		rows.Close()
		base += n
	}
	return nil
}

// parquetRow decodes one Parquet row; byte values are copied, since the reader
// reuses its buffers.
func parquetRow(pr parquet.Row, leaves map[int]leaf) Row {
	var row Row
	var licenses []string
	for _, v := range pr {
		l, ok := leaves[v.Column()]
		if !ok || v.IsNull() {
			continue
		}
		switch l.field {
		case fContent:
			row.Content = bytes.Clone(v.ByteArray())
			row.HasContent = true
		case fStars:
			row.Stars = parquetInt(v)
		case fForks:
			row.Forks = parquetInt(v)
		case fCreatedAt, fUpdatedAt, fPushedAt:
			s := parquetDate(v, l.unit)
			switch l.field {
			case fCreatedAt:
				row.CreatedAt = s
			case fUpdatedAt:
				row.UpdatedAt = s
			default:
				row.PushedAt = s
			}
		case fLicense:
			if s := parquetString(v); s != "" {
				licenses = append(licenses, s)
			}
		default:
			s := parquetString(v)
			switch l.field {
			case fRepo:
				row.Repo = s
			case fRepoURL:
				row.RepoURL = s
			case fPath:
				row.Path = s
			case fBlobID:
				row.BlobID = s
			case fCommit:
				row.Commit = s
			case fBranch:
				row.Branch = branchName(s)
			case fLineDates:
				row.LineDates = s
			}
		}
	}
	row.License = strings.Join(licenses, ", ")
	return row
}

func parquetString(v parquet.Value) string {
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray())
	case parquet.Int32, parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	}
	return v.String()
}

func parquetInt(v parquet.Value) int {
	switch v.Kind() {
	case parquet.Int32, parquet.Int64:
		return int(v.Int64())
	case parquet.Float, parquet.Double:
		return int(v.Double())
	case parquet.ByteArray:
		n, _ := strconv.Atoi(strings.TrimSpace(string(v.ByteArray())))
		return n
	}
	return 0
}

// parquetDate reads a date column: a string, or a timestamp in unit (guessed from
// the value's size when the column does not say).
func parquetDate(v parquet.Value, unit time.Duration) string {
	switch v.Kind() {
	case parquet.Int64, parquet.Int32:
		n := v.Int64()
		if unit == 0 {
			switch {
			case n > 1e17:
				unit = time.Nanosecond
			case n > 1e14:
				unit = time.Microsecond
			case n > 1e11:
				unit = time.Millisecond
			default:
				unit = time.Second
			}
		}
		return time.Unix(0, 0).Add(time.Duration(n) * unit).UTC().Format("2006-01-02T15:04:05Z")
	}
	return utcDate(parquetString(v))
}

// ReadJSONL reads one JSON object a line. A line that is not a JSON object, or is
// longer than MaxRowBytes, is a bad row; empty lines are skipped (they still count
// in the row index, so an index is a line number less one).
func ReadJSONL(ctx context.Context, r io.Reader, fn RowFunc) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for index := int64(0); ; index++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, tooLong, err := readLine(br, MaxRowBytes)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			row, bad := jsonRow(line, tooLong)
			if ferr := fn(index, row, bad); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read line %d: %w", index+1, err)
		}
	}
}

// readLine reads one line without its newline; past limit bytes it discards the
// rest of the line and reports it too long.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), tooLong, err
	}
}

// jsonRow decodes one JSONL line.
func jsonRow(line []byte, tooLong bool) (Row, string) {
	if tooLong {
		return Row{}, fmt.Sprintf("corrupt row: longer than %d bytes", MaxRowBytes)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		msg := err.Error()
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return Row{}, "corrupt row: not a JSON object: " + msg
	}
	names := pick(func(n string) bool { _, ok := obj[n]; return ok })
	var row Row
	str := func(f field) string {
		raw, ok := obj[names[f]]
		if names[f] == "" || !ok {
			return ""
		}
		return jsonString(raw)
	}
	row.Repo, row.Path, row.BlobID, row.Commit = str(fRepo), str(fPath), str(fBlobID), str(fCommit)
	row.RepoURL, row.HasRepoURL = str(fRepoURL), names[fRepoURL] != ""
	row.Branch = branchName(str(fBranch))
	row.LineDates = str(fLineDates)
	row.CreatedAt, row.UpdatedAt, row.PushedAt = jsonDate(obj[names[fCreatedAt]]), jsonDate(obj[names[fUpdatedAt]]), jsonDate(obj[names[fPushedAt]])
	row.Stars, _ = strconv.Atoi(str(fStars))
	row.Forks, _ = strconv.Atoi(str(fForks))
	if raw, ok := obj[names[fLicense]]; ok && names[fLicense] != "" {
		var list []string
		if json.Unmarshal(raw, &list) == nil {
			row.License = strings.Join(list, ", ")
		} else {
			row.License = jsonString(raw)
		}
	}
	if raw, ok := obj["content_base64"]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return row, "corrupt row: content_base64 is not a string"
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return row, "corrupt row: content_base64 is not base64"
		}
		row.Content, row.HasContent = b, true
	} else if raw, ok := obj[names[fContent]]; ok && names[fContent] != "" && string(raw) != "null" {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return row, "corrupt row: content is not a string"
		}
		row.Content, row.HasContent = []byte(s), true
	}
	if p := row.problem(); p != "" {
		return row, "corrupt row: " + p
	}
	return row, ""
}

// jsonString reads a JSON string, or a number's text; null and others are "".
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// jsonDate reads a date: a string, or a number of seconds (or milli-, micro-,
// nanoseconds, told by size) since the epoch.
func jsonDate(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if i, err := n.Int64(); err == nil {
			return parquetDate(parquet.Int64Value(i), 0)
		}
	}
	return utcDate(jsonString(raw))
}
