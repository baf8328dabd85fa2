package decontam

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sccg/internal/conformance"
)

// releaseTestRecord is a published-format record with code and comments.
func releaseTestRecord(id, code, comment string) map[string]any {
	return map[string]any{
		"sample_id": id, "api_name": "wx", "api_host": "wx.p.rapidapi.com", "function_name": "get",
		"github_info":  map[string]any{"repo": "a/b", "file_path": "x.py"},
		"code":         map[string]any{"complete_function": code},
		"api_metadata": map[string]any{"url": "https://wx.p.rapidapi.com/current", "headers": map[string]any{"x-rapidapi-key": "<REDACTED_RAPIDAPI_KEY>"}},
		"comments":     []any{map[string]any{"text": comment}},
	}
}

func writeReleaseFile(t *testing.T, dir, name string, recs []map[string]any, jsonl bool) string {
	t.Helper()
	p := filepath.Join(dir, name)
	var b []byte
	if jsonl {
		for _, r := range recs {
			line, _ := json.Marshal(r)
			b = append(append(b, line...), '\n')
		}
	} else {
		b, _ = json.MarshalIndent(recs, "", " ")
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAuditRelease(t *testing.T) {
	clean := "import requests\n\ndef get(city, key):\n    h = {'X-RapidAPI-Key': '<REDACTED_RAPIDAPI_KEY>'}\n    return requests.get('https://wx.p.rapidapi.com/current', headers=h).json()\n"
	leakKey := "9c1d" + "e2f3a4b5msh" + "0a1b2c3d4e5f6a7p" + "1b2c3d" + "jsn0a1b2c3d4e5f"
	tests := []struct {
		name      string
		recs      []map[string]any
		jsonl     bool
		wantKinds []string
		wantField string
	}{
		{name: "clean array", recs: []map[string]any{releaseTestRecord("SCG-000001", clean, "Get the weather for a city.")}},
		{name: "clean jsonl", jsonl: true, recs: []map[string]any{releaseTestRecord("SCG-000001", clean, "ok"), releaseTestRecord("SCG-000002", clean, "ok")}},
		{
			name:      "seeded rapidapi key in code",
			recs:      []map[string]any{releaseTestRecord("SCG-000003", strings.Replace(clean, "<REDACTED_RAPIDAPI_KEY>", leakKey, 1), "ok")},
			wantKinds: []string{"RAPIDAPI_KEY"}, wantField: "code.complete_function",
		},
		{
			name: "unrecognised key in a metadata header",
			recs: []map[string]any{func() map[string]any {
				r := releaseTestRecord("SCG-000005", clean, "ok")
				r["api_metadata"].(map[string]any)["headers"] = map[string]any{"x-rapidapi-key": "a81b2c3d4e5f60718293"}
				return r
			}()},
			wantKinds: []string{"RAPIDAPI_KEY"}, wantField: "api_metadata.headers.x-rapidapi-key",
		},
		{
			name:      "email and user path in a comment",
			recs:      []map[string]any{releaseTestRecord("SCG-000004", clean, "Ask ops.lead@corp-mail.io, data in /Users/mlopez/data")},
			wantKinds: []string{"EMAIL", "USER"}, wantField: "comments[0].text",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := "export.json"
			if tt.jsonl {
				name = "export.jsonl"
			}
			writeReleaseFile(t, dir, name, tt.recs, tt.jsonl)
			rep, err := AuditRelease(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Records != len(tt.recs) {
				t.Errorf("records %d, want %d", rep.Records, len(tt.recs))
			}
			var kinds []string
			for _, f := range rep.Findings {
				kinds = append(kinds, f.Kind)
				if f.Field != tt.wantField {
					t.Errorf("finding in field %s, want %s", f.Field, tt.wantField)
				}
				if strings.Contains(f.Excerpt, leakKey) || strings.Contains(f.Excerpt, "ops.lead@") || strings.Contains(f.Excerpt, "mlopez") {
					t.Errorf("excerpt %q reveals the value", f.Excerpt)
				}
			}
			if strings.Join(kinds, ",") != strings.Join(tt.wantKinds, ",") {
				t.Errorf("finding kinds %v, want %v", kinds, tt.wantKinds)
			}
			if rep.OK() != (len(tt.wantKinds) == 0) {
				t.Errorf("OK() = %v with %d findings", rep.OK(), len(rep.Findings))
			}
			if rep.Placeholders["RAPIDAPI_KEY"] == 0 && tt.wantField != "api_metadata.headers.x-rapidapi-key" {
				t.Errorf("placeholders not counted: %v", rep.Placeholders)
			}
		})
	}
}

func TestAuditReleaseFailsClosed(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, content string }{
		{"not json", "this is not JSON"},
		{"array of non-objects", "[1, 2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			os.WriteFile(p, []byte(tt.content), 0o644)
			if _, err := AuditRelease(context.Background(), p); err == nil {
				t.Errorf("AuditRelease(%s) passed, want an error", tt.name)
			}
		})
	}
	t.Run("empty directory", func(t *testing.T) {
		if _, err := AuditRelease(context.Background(), t.TempDir()); err == nil {
			t.Error("AuditRelease of an empty directory passed, want an error")
		}
	})
}

// TestConformanceAuditRelease scans the public validation samples (make conformance):
// the published release has its credentials redacted, so every finding is a false
// positive of the scanner.
func TestConformanceAuditRelease(t *testing.T) {
	path := conformance.Path(t)
	rep, err := AuditRelease(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("records=%d strings=%d placeholders=%v findings=%d", rep.Records, rep.Strings, rep.Placeholders, len(rep.Findings))
	for _, f := range rep.Findings {
		t.Errorf("%s %s line %d %s (%s): %s", f.Sample, f.Field, f.Line, f.Kind, f.Rule, f.Excerpt)
	}
}
