package decontam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sccg/lang"
	"sccg/lang/frontends"
	"sccg/secrets"
)

// ReleaseFinding is a credential, e-mail address or user path left in an export.
type ReleaseFinding struct {
	File    string `json:"file"`
	Sample  string `json:"sample"` // sample_id, or #index when the record has none
	Field   string `json:"field"`  // JSON path inside the record: code.complete_function
	Line    int    `json:"line"`   // line inside the field's value
	Kind    string `json:"kind"`
	Rule    string `json:"rule"`
	Excerpt string `json:"excerpt"` // masked: the value never appears
}

// ReleaseReport is the result of AuditRelease.
type ReleaseReport struct {
	Files        []string         `json:"files"`
	Records      int              `json:"records"`
	Strings      int              `json:"strings"`
	Placeholders map[string]int   `json:"placeholders"` // <REDACTED_KIND> already in the export, by kind
	Findings     []ReleaseFinding `json:"findings"`
}

// OK reports whether the export is clean.
func (r *ReleaseReport) OK() bool { return len(r.Findings) == 0 }

var placeholderRe = regexp.MustCompile(`<REDACTED_([A-Z_]+)>`)

// AuditRelease scans an export (a file or a directory of .json / .jsonl files in the
// published format) for credential-like literals, e-mail addresses and absolute
// user paths in every string of every record. It fails closed: a file it cannot
// read or parse is an error, not a pass.
func AuditRelease(ctx context.Context, target string) (*ReleaseReport, error) {
	files, err := releaseFiles(target)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("audit release: no .json or .jsonl files in %s", target)
	}
	rep := &ReleaseReport{Files: files, Placeholders: map[string]int{}, Findings: []ReleaseFinding{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("audit release: %w", err)
		}
		recs, err := decodeRecords(b)
		if err != nil {
			return nil, fmt.Errorf("audit release %s: %w", f, err)
		}
		for i, r := range recs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sample := "#" + strconv.Itoa(i)
			if id, ok := r["sample_id"].(string); ok && id != "" {
				sample = id
			}
			rep.Records++
			language, _ := r["language"].(string)
			var path string
			if gi, ok := r["github_info"].(map[string]any); ok {
				path, _ = gi["file_path"].(string)
			}
			sc, err := scannerFor(lang.Of(language), path)
			if err != nil {
				return nil, fmt.Errorf("audit release %s %s: %w", f, sample, err)
			}
			var walkErr error
			walkStrings(r, "", "", func(path, name, s string) {
				if walkErr != nil {
					return
				}
				rep.Strings++
				for _, m := range placeholderRe.FindAllStringSubmatch(s, -1) {
					rep.Placeholders[m[1]]++
				}
				var fs []secrets.Finding
				if looksLikeCode(path, s) {
					fs, walkErr = sc.Find(ctx, []byte(s))
				} else {
					fs = secrets.FindValue(name, s)
				}
				for _, x := range fs {
					rep.Findings = append(rep.Findings, ReleaseFinding{File: f, Sample: sample, Field: path,
						Line: 1 + strings.Count(s[:x.Start], "\n"), Kind: x.Kind, Rule: x.Rule, Excerpt: excerpt(s, x)})
				}
			})
			if walkErr != nil {
				return nil, fmt.Errorf("audit release %s %s: %w", f, sample, walkErr)
			}
		}
	}
	return rep, nil
}

func releaseFiles(target string) ([]string, error) {
	st, err := os.Stat(target)
	if err != nil {
		return nil, fmt.Errorf("audit release: %w", err)
	}
	if !st.IsDir() {
		return []string{target}, nil
	}
	var out []string
	err = filepath.WalkDir(target, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".jsonl", ".ndjson":
			if !d.IsDir() {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("audit release: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// decodeRecords reads a JSON array of objects, one object, or JSON Lines.
func decodeRecords(b []byte) ([]map[string]any, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return nil, nil
	}
	if t[0] == '[' {
		var recs []map[string]any
		if err := json.Unmarshal(t, &recs); err != nil {
			return nil, fmt.Errorf("not a JSON array of records: %w", err)
		}
		return recs, nil
	}
	var recs []map[string]any
	for i, line := range bytes.Split(t, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal(line, &r); err != nil {
			if i == 0 {
				// Maybe one pretty-printed object.
				var one map[string]any
				if json.Unmarshal(t, &one) == nil {
					return []map[string]any{one}, nil
				}
			}
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// walkStrings calls fn with every string in v (object keys included), its path and
// the name of the object key that holds it.
func walkStrings(v any, path, name string, fn func(path, name, s string)) {
	switch x := v.(type) {
	case string:
		fn(path, name, x)
	case []any:
		for i, e := range x {
			walkStrings(e, path+"["+strconv.Itoa(i)+"]", name, fn)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			fn(p+"{key}", "", k)
			walkStrings(x[k], p, k, fn)
		}
	}
}

// looksLikeCode tells code fields (scanned with the Python syntax too) from text.
func looksLikeCode(path, s string) bool {
	if strings.HasPrefix(path, "code.") || strings.HasSuffix(path, "_code") || strings.Contains(path, "code_params") {
		return true
	}
	return strings.Contains(s, "\n") && (strings.Contains(s, "def ") || strings.Contains(s, "import ") || strings.Contains(s, " = "))
}

// scannerFor is the credential scanner of code of language n, in the dialect of
// the file at path.
func scannerFor(n lang.Name, path string) (*secrets.Scanner, error) {
	fe, err := frontends.For(n)
	if err != nil {
		return nil, err
	}
	return secrets.NewScanner(fe, frontends.DialectOf(n, path)), nil
}

// excerpt shows where a finding is without showing it: a little of the line before
// it (itself redacted) and the masked value.
func excerpt(s string, f secrets.Finding) string {
	start := max(f.Start-32, 0)
	if i := strings.LastIndexByte(s[start:f.Start], '\n'); i >= 0 {
		start += i + 1
	}
	before, _ := secrets.RedactText(s[start:f.Start])
	return strings.TrimLeft(before, " \t") + secrets.Mask(s[f.Start:f.End])
}
