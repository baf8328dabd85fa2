package release

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Format is an export file format.
type Format string

// Export formats.
const (
	JSON  Format = "json"  // one JSON array per file
	JSONL Format = "jsonl" // one record per line
)

// Encode renders records as a JSON array (indented, one record after another) or
// as JSON Lines. Characters like < and & are written as themselves, not escaped.
func Encode(recs []Record, format Format) ([]byte, error) {
	if recs == nil {
		recs = []Record{}
	}
	if format == JSONL {
		var buf bytes.Buffer
		for i := range recs {
			b, err := json.Marshal(&recs[i])
			if err != nil {
				return nil, fmt.Errorf("record %s: %w", recs[i].SampleID, err)
			}
			buf.Write(UnescapeHTML(b))
			buf.WriteByte('\n')
		}
		return buf.Bytes(), nil
	}
	return EncodeJSON(recs)
}

// EncodeJSON renders v as indented JSON the way Encode writes a release file: <, >
// and & as themselves, a newline at the end.
func EncodeJSON(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(UnescapeHTML(b), '\n'), nil
}

// UnescapeHTML turns the \u003c, \u003e and \u0026 escapes encoding/json writes
// back into <, > and &; it leaves escaped backslashes alone.
func UnescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, c, b[i+1])
		i++
	}
	return out
}
