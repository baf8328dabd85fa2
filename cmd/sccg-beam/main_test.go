package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"sccg/store"
)

func TestRun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "sccg.db")
	shard := filepath.Join(dir, "c.jsonl")
	os.WriteFile(shard, []byte(`{"repo_name": "o/r", "path": "j.py", "revision_id": "c1", "content": "H = 'jokes.p.rapidapi.com'\n"}`+"\n"), 0o644)
	base := func() *options {
		return &options{db: db, corpus: shard, out: filepath.Join(dir, "out"), shards: 2, maxFileBytes: 1 << 20, endpointsPerAPI: 5, json: true}
	}
	var ue usageError
	for _, o := range []*options{{db: db}, func() *options { o := base(); o.shards = 0; return o }(),
		func() *options { o := base(); o.format = "csv"; return o }()} {
		if err := run(ctx, o, "", &bytes.Buffer{}); !errors.As(err, &ue) {
			t.Errorf("%+v: err %v, want a usage error", o, err)
		}
	}
	if err := run(ctx, base(), "", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "no crawled API") {
		t.Errorf("a store without APIs: err %v", err)
	}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Slug: "jokes", Host: "jokes.p.rapidapi.com"},
			[]store.Endpoint{{IsCurrent: true, Host: "jokes.p.rapidapi.com", Method: "GET", Route: "/random"}})
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	missing := base()
	missing.corpus = filepath.Join(dir, "none", "*.parquet")
	if err := run(ctx, missing, "", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "no corpus shard matches") {
		t.Errorf("a glob matching nothing: err %v", err)
	}
	var out bytes.Buffer
	if err := run(ctx, base(), "", &out); err != nil {
		t.Fatal(err)
	}
	var res result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.Runner != "prism" || res.Manifest["rows"] != 1 || res.Manifest["found"] != 1 || res.Load == nil || res.Load.Files != 1 {
		t.Errorf("result %+v (load %+v)", res, res.Load)
	}
}

func TestMain(m *testing.M) {
	beamlog.LogLevel = "warn" // the runner's progress lines stay out of test output
	os.Exit(m.Run())
}
