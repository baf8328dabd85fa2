// Package release is the SCCGBench release format: the published JSON record (every
// unknown field kept as read), reading, parsing and encoding release files, and the
// names of the splits. Everything that reads or writes a benchmark (export, import,
// the evaluator, verification) goes through it. It imports no stage and needs no cgo.
package release

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
)

// Record is one sample in the published SCCGBench release format. Known fields are
// typed; every other field, at the top level and inside the nested objects, is kept
// in Extra as it was read, so import → export loses and changes nothing.
type Record struct {
	SampleID       string          `json:"sample_id"`
	APIName        string          `json:"api_name"`
	APIHost        string          `json:"api_host"`
	FunctionName   string          `json:"function_name"`
	Language       string          `json:"language"`
	GitHubInfo     GitHubInfo      `json:"github_info"`
	Code           Code            `json:"code"`
	APIMetadata    Metadata        `json:"api_metadata"`
	QualityMetrics json.RawMessage `json:"quality_metrics,omitempty"`
	Comments       []Comment       `json:"comments"`
	CommentsSource string          `json:"comments_source"`

	Extra map[string]json.RawMessage `json:"-"`
}

// GitHubInfo is the provenance of a sample's source file.
type GitHubInfo struct {
	Repo       string `json:"repo"`
	FilePath   string `json:"file_path"`
	FileURL    string `json:"file_url"`
	Stars      int    `json:"stars"`
	Forks      int    `json:"forks"`
	License    string `json:"license"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
	QueryLayer string `json:"query_layer"`
	// FunctionAuthoredAt is when the function's oldest line was written (when it
	// first appeared) and FunctionModifiedAt when its newest was, ISO 8601 UTC:
	// author dates as git blame gives them at the mined commit. Both are empty
	// when unknown; FunctionDatedBy says how the lines were dated (git_blame,
	// commit_history) and FunctionDateUnknown why they could not be. sccg adds
	// them; a record without them still reads.
	FunctionAuthoredAt  string `json:"function_authored_at,omitempty"`
	FunctionModifiedAt  string `json:"function_modified_at,omitempty"`
	FunctionDatedBy     string `json:"function_dated_by,omitempty"`
	FunctionDateUnknown string `json:"function_date_unknown,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// Code holds a sample's code: the self-contained function that is the reference
// solution, and the function as found.
type Code struct {
	CompleteFunction string `json:"complete_function"`
	OriginalFunction string `json:"original_function,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// Metadata is a sample's ground truth: the documented endpoint it calls.
type Metadata struct {
	URL          string            `json:"url"`
	Method       string            `json:"method"`
	Route        string            `json:"route"`
	Headers      map[string]string `json:"headers"`
	Params       json.RawMessage   `json:"params"`        // null or a list of documented query params
	PathParams   json.RawMessage   `json:"path_params"`   // null or a list
	HeaderParams json.RawMessage   `json:"header_params"` // null or a list
	Payload      json.RawMessage   `json:"payload"`
	ParamsSource json.RawMessage   `json:"params_source,omitempty"` // a string, null, or absent
	EndpointID   string            `json:"endpoint_id"`
	EndpointName string            `json:"endpoint_name"`
	DocMatchType string            `json:"doc_match_type"` // url | route | host_only
	CodeParams   json.RawMessage   `json:"code_params"`    // parameters observed in the code

	Extra map[string]json.RawMessage `json:"-"`
}

// Comment is one natural-language comment or intent attached to a sample.
type Comment struct {
	Text string `json:"text"`

	Extra map[string]json.RawMessage `json:"-"`
}

// The methods below keep unknown fields: each type decodes its known fields normally
// and keeps the rest in Extra; encoding writes both.

func (r *Record) UnmarshalJSON(b []byte) error { return decodeKeeping(b, (*recordAlias)(r), &r.Extra) }
func (r Record) MarshalJSON() ([]byte, error)  { return encodeKeeping(recordAlias(r), r.Extra) }
func (g *GitHubInfo) UnmarshalJSON(b []byte) error {
	return decodeKeeping(b, (*githubAlias)(g), &g.Extra)
}
func (g GitHubInfo) MarshalJSON() ([]byte, error) { return encodeKeeping(githubAlias(g), g.Extra) }
func (c *Code) UnmarshalJSON(b []byte) error      { return decodeKeeping(b, (*codeAlias)(c), &c.Extra) }
func (c Code) MarshalJSON() ([]byte, error)       { return encodeKeeping(codeAlias(c), c.Extra) }
func (m *Metadata) UnmarshalJSON(b []byte) error {
	return decodeKeeping(b, (*metadataAlias)(m), &m.Extra)
}
func (m Metadata) MarshalJSON() ([]byte, error) { return encodeKeeping(metadataAlias(m), m.Extra) }
func (c *Comment) UnmarshalJSON(b []byte) error {
	return decodeKeeping(b, (*commentAlias)(c), &c.Extra)
}
func (c Comment) MarshalJSON() ([]byte, error) { return encodeKeeping(commentAlias(c), c.Extra) }

type (
	recordAlias   Record
	githubAlias   GitHubInfo
	codeAlias     Code
	metadataAlias Metadata
	commentAlias  Comment
)

// jsonKeys lists the JSON names of a struct type's encoded fields.
func jsonKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("json")
		name := strings.Split(tag, ",")[0]
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

func decodeKeeping(b []byte, known any, extra *map[string]json.RawMessage) error {
	if err := json.Unmarshal(b, known); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	keys := jsonKeys(reflect.TypeOf(known).Elem())
	*extra = nil
	for k, v := range all {
		if !keys[k] {
			if *extra == nil {
				*extra = map[string]json.RawMessage{}
			}
			(*extra)[k] = v
		}
	}
	return nil
}

func encodeKeeping(known any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(known)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, ok := all[k]; !ok {
			all[k] = v
		}
	}
	return json.Marshal(all)
}

// ReadFile reads a benchmark in the published format: a JSON array of records, or
// JSON Lines with one record per line.
func ReadFile(path string) ([]Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read benchmark: %w", err)
	}
	recs, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("read benchmark %s: %w", path, err)
	}
	return recs, nil
}

// Parse decodes a benchmark in the published format (JSON array or JSON Lines).
func Parse(b []byte) ([]Record, error) {
	trimmed := strings.TrimSpace(string(b))
	if strings.HasPrefix(trimmed, "[") {
		var recs []Record
		if err := json.Unmarshal(b, &recs); err != nil {
			return nil, fmt.Errorf("not a JSON array of records: %w", err)
		}
		return recs, nil
	}
	var recs []Record
	for i, line := range strings.Split(trimmed, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// APIKey names the API a record belongs to: its api_name, or its host when it has
// none. Splits keep every API in one split under this key.
func APIKey(r *Record) string {
	if n := strings.ToLower(strings.TrimSpace(r.APIName)); n != "" {
		return n
	}
	return strings.ToLower(strings.TrimSpace(r.APIHost))
}
