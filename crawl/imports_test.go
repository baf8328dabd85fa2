package crawl

import (
	"context"
	"errors"
	"testing"

	"sccg/internal/storetest"
)

func TestImportGolden(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		source    string
		paths     []string
		golden    string
		wantSaved int
		wantBad   int
	}{
		{"openapi folder (3.0 YAML, 3.1 JSON, Swagger 2.0)", SourceOpenAPI, []string{"testdata/openapi"}, "openapi.txt", 4, 1},
		{"toolbench tree", SourceToolBench, []string{"testdata/toolbench"}, "toolbench.txt", 2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := storetest.Open(t)
			o := Options{Source: tc.source, Paths: tc.paths}
			sum, err := Run(ctx, s, o)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Saved != tc.wantSaved || sum.Bad != tc.wantBad {
				t.Errorf("summary %+v, want %d saved and %d bad", sum, tc.wantSaved, tc.wantBad)
			}
			checkGolden(t, tc.golden, readableDump(t, s))
			apis, _ := s.APIs(ctx)
			for _, a := range apis {
				if err := ValidateOpenAPI(ctx, []byte(a.OpenAPI)); err != nil {
					t.Errorf("%s: normalized OpenAPI does not validate: %v", a.Slug, err)
				}
			}
			// Rerun: every file is done, nothing changes.
			before := storetest.MustDump(t, s)
			sum2, err := Run(ctx, s, o)
			if err != nil {
				t.Fatal(err)
			}
			after := storetest.MustDump(t, s)
			if sum2.Skipped != tc.wantSaved || before != after {
				t.Errorf("rerun: %+v; store changed: %v", sum2, before != after)
			}
		})
	}
}

func TestImportBadFiles(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		load loader
		path string
	}{
		{"openapi without host", LoadOpenAPIFile, "testdata/openapi/no-host.json"},
		{"openapi with webhooks only", LoadOpenAPIFile, "testdata/describe/only-webhooks.yaml"},
		{"missing file", LoadOpenAPIFile, "testdata/openapi/none.yaml"},
		{"truncated toolbench", LoadToolBenchFile, "testdata/toolbench/Broken/truncated.json"},
		{"toolbench without endpoints", LoadToolBenchFile, "testdata/toolbench/Broken/empty_api_list.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := tc.load(ctx, tc.path)
			if !errors.Is(err, ErrBadInput) {
				t.Errorf("got %v, %v; want ErrBadInput", doc, err)
			}
		})
	}
	s := storetest.Open(t)
	_, err := Run(ctx, s, Options{Source: SourceOpenAPI, Paths: []string{"testdata/openapi/no-host.json", "testdata/nowhere"}})
	if !errors.Is(err, ErrNothingCrawled) {
		t.Errorf("only bad files: %v, want ErrNothingCrawled", err)
	}
}
