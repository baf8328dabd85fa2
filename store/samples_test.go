package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

func TestSamplesPutGetIdempotent(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	in := []Sample{
		{SampleID: "SCG-000002", Origin: OriginImported, APIName: "b", APIHost: "b.p.rapidapi.com", Record: json.RawMessage(`{"sample_id":"SCG-000002"}`)},
		{SampleID: "SCG-000001", Origin: OriginImported, APIName: "a", APIHost: "a.p.rapidapi.com", DocMatchType: "url", Record: json.RawMessage(`{"sample_id":"SCG-000001"}`)},
	}
	for round := 0; round < 2; round++ {
		err := s.Update(ctx, func(tx *Tx) error {
			for i := range in {
				if err := tx.PutSample(ctx, &in[i]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Samples(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].SampleID != "SCG-000001" || got[1].SampleID != "SCG-000002" {
		t.Fatalf("Samples = %+v, want SCG-000001, SCG-000002 once each", got)
	}
	one, err := s.SampleByID(ctx, "SCG-000001")
	if err != nil {
		t.Fatal(err)
	}
	if one.DocMatchType != "url" || string(one.Record) != `{"sample_id":"SCG-000001"}` || one.ID != in[1].ID {
		t.Errorf("SampleByID = %+v, want the stored row %d", one, in[1].ID)
	}
	if _, err := s.SampleByID(ctx, "SCG-999999"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing sample: err = %v, want ErrNotFound", err)
	}
}

func TestSplitsIntentsRenameDelete(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	smp := Sample{SampleID: "SCG-000001", Origin: OriginImported}
	err := s.Update(ctx, func(tx *Tx) error {
		if err := tx.PutSample(ctx, &smp); err != nil {
			return err
		}
		if err := tx.PutIntent(ctx, Intent{SampleRowID: smp.ID, Attempt: 1, Kind: "intent_redacted", Text: "leaky", Leak: json.RawMessage(`{"leaks":["host"]}`)}); err != nil {
			return err
		}
		if err := tx.PutIntent(ctx, Intent{SampleRowID: smp.ID, Attempt: 2, Kind: "intent_redacted", Text: "fine", Passed: true}); err != nil {
			return err
		}
		return tx.ReplaceSplits(ctx, []SplitAssignment{{SampleRowID: smp.ID, Split: "test", Family: "fam", Seed: 7}})
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		check func() error
	}{
		{"split joined into the sample", func() error {
			got, err := s.SampleByID(ctx, "SCG-000001")
			if err != nil {
				return err
			}
			if got.Split != "test" {
				return errors.New("split = " + got.Split + ", want test")
			}
			return nil
		}},
		{"intents in attempt order", func() error {
			ins, err := s.Intents(ctx, smp.ID)
			if err != nil {
				return err
			}
			if len(ins) != 2 || ins[0].Passed || !ins[1].Passed || string(ins[0].Leak) != `{"leaks":["host"]}` {
				b, _ := json.Marshal(ins)
				return errors.New("intents = " + string(b))
			}
			return nil
		}},
		{"rename keeps split", func() error {
			if err := s.Update(ctx, func(tx *Tx) error { return tx.RenameSample(ctx, smp.ID, "SCG-000009") }); err != nil {
				return err
			}
			as, err := s.Splits(ctx)
			if err != nil {
				return err
			}
			if len(as) != 1 || as[0].SampleID != "SCG-000009" || as[0].Seed != 7 || as[0].Family != "fam" {
				b, _ := json.Marshal(as)
				return errors.New("splits = " + string(b))
			}
			return nil
		}},
		{"delete cascades", func() error {
			if err := s.Update(ctx, func(tx *Tx) error { return tx.DeleteSample(ctx, smp.ID) }); err != nil {
				return err
			}
			c, err := s.Counts(ctx)
			if err != nil {
				return err
			}
			if c["samples"]+c["intents"]+c["splits"] != 0 {
				b, _ := json.Marshal(c)
				return errors.New("rows left: " + string(b))
			}
			return nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.check(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSampleLineageOfImportedSample(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	smp := Sample{SampleID: "SCG-000003", Origin: OriginImported}
	err := s.Update(ctx, func(tx *Tx) error {
		if err := tx.PutSample(ctx, &smp); err != nil {
			return err
		}
		return tx.RecordDecision(ctx, Decision{Stage: "import", SubjectKind: "sample", Subject: "SCG-000003", Verdict: Kept, Reason: "imported"})
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.SampleLineage(ctx, "SCG-000003")
	if err != nil {
		t.Fatal(err)
	}
	if l.Function != nil || l.Split != nil || len(l.Decisions) != 1 || l.Decisions[0].Reason != "imported" {
		t.Errorf("lineage = %+v, want no code lineage, no split, the import decision", l)
	}
}
