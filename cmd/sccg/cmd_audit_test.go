package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestAuditCLI(t *testing.T) {
	fixture := filepath.Join("..", "..", "samples", "testdata", "mini.json")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "text", args: []string{"audit", "SCG-000007"}, code: 0, stdout: "(what the import knew, from api_metadata)"},
		{name: "unknown sample", args: []string{"audit", "SCG-999999"}, code: 1, stderr: "no sample SCG-999999"},
		{name: "no id", args: []string{"audit"}, code: 2},
	}
	e, out, errb := newTestEnv(t)
	importTestRun(t, e, 0, "import", fixture, "--split", "test")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out.Reset()
			errb.Reset()
			importTestRun(t, e, tc.code, tc.args...)
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out, errb, tc.stdout, tc.stderr)
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		out.Reset()
		importTestRun(t, e, 0, "audit", "--json", "SCG-000008")
		var got struct {
			Sample struct {
				SampleID string `json:"sample_id"`
				Origin   string `json:"origin"`
			} `json:"sample"`
			Split struct {
				Split string `json:"split"`
			} `json:"split"`
			Record struct {
				APIHost string `json:"api_host"`
			} `json:"record"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Sample.SampleID != "SCG-000008" || got.Sample.Origin != "imported" || got.Split.Split != "test" || got.Record.APIHost != "translate-it.p.rapidapi.com" {
			t.Errorf("audit json = %+v", got)
		}
	})
}
