package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leakBench is a benchmark in the published format with one leaking comment per
// comments_source but one.
const leakBench = `[
 {"sample_id": "SCG-000001", "api_name": "temp-mail44", "api_host": "temp-mail44.p.rapidapi.com", "function_name": "new_inbox",
  "code": {"complete_function": "import requests\ndef new_inbox():\n    return requests.post('https://temp-mail44.p.rapidapi.com/api/v3/email/new').json()\n"},
  "api_metadata": {"url": "https://temp-mail44.p.rapidapi.com/api/v3/email/new", "method": "POST", "route": "/api/v3/email/new"},
  "comments": [{"text": "Create a new inbox with the Temp-Mail44 service."}], "comments_source": "intent_humanlike"},
 {"sample_id": "SCG-000002", "api_name": "meteostat", "api_host": "meteostat.p.rapidapi.com", "function_name": "daily",
  "code": {"complete_function": "import requests\ndef daily(sid):\n    return requests.get('https://meteostat.p.rapidapi.com/stations/daily', params={'station': sid, 'start': '2024-01-01'}).json()\n"},
  "api_metadata": {"method": "GET", "route": "/stations/daily", "params": [{"name": "station"}, {"name": "start"}]},
  "comments": [{"text": "Daily weather records of a station since 2024-01-01."}], "comments_source": "original"},
 {"sample_id": "SCG-000003", "api_name": "meteostat", "api_host": "meteostat.p.rapidapi.com", "function_name": "hourly",
  "code": {"complete_function": "def hourly(): pass\n"},
  "api_metadata": {"method": "GET", "route": "/stations/hourly"},
  "comments": [{"text": "Get hourly weather data for a station."}], "comments_source": "intent_redacted"}
]`

func TestLeakcheckBench(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.json")
	if err := os.WriteFile(path, []byte(leakBench), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("text", func(t *testing.T) {
		e, out, errb := newTestEnv(t)
		if code := run(context.Background(), []string{"leakcheck", "--bench", path}, e); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		for _, want := range []string{"intent_humanlike  1        1       100.0%  host_label 1", "intent_redacted   1        0       0.0%",
			"all               3        2       66.7%", `SCG-000002  param_value "2024-01-01"`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		}
	})
	t.Run("json", func(t *testing.T) {
		e, out, errb := newTestEnv(t)
		if code := run(context.Background(), []string{"--json", "leakcheck", "--bench", path}, e); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var rep struct {
			Samples []struct {
				SampleID       string   `json:"sample_id"`
				CommentsSource string   `json:"comments_source"`
				Leaked         bool     `json:"leaked"`
				Tokens         []string `json:"tokens"`
			} `json:"samples"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%v:\n%s", err, out.String())
		}
		got := map[string]string{}
		for _, s := range rep.Samples {
			got[s.SampleID] = s.CommentsSource + " " + strings.Join(s.Tokens, "|")
		}
		want := map[string]string{"SCG-000001": "intent_humanlike Temp-Mail44", "SCG-000002": "original 2024-01-01", "SCG-000003": "intent_redacted "}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: %q, want %q", id, got[id], w)
			}
		}
	})
	t.Run("bad file", func(t *testing.T) {
		e, _, errb := newTestEnv(t)
		bad := filepath.Join(t.TempDir(), "bad.json")
		os.WriteFile(bad, []byte("[{"), 0o644)
		if code := run(context.Background(), []string{"leakcheck", "--bench", bad}, e); code != 2 {
			t.Fatalf("exit %d, want 2: %s", code, errb.String())
		}
		if !strings.Contains(errb.String(), bad) {
			t.Errorf("the error does not name the file: %s", errb.String())
		}
	})
}
