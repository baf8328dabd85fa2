package split

import (
	"context"
	"fmt"

	"sccg/release"
	"sccg/store"
)

// Units reads the store's samples as the splitter sees them.
func Units(ctx context.Context, s *store.Store) ([]Unit, error) {
	smps, err := s.Samples(ctx)
	if err != nil {
		return nil, err
	}
	origins, err := s.SampleOrigins(ctx)
	if err != nil {
		return nil, err
	}
	units := make([]Unit, 0, len(smps))
	for _, smp := range smps {
		var r release.Record
		if err := r.UnmarshalJSON(smp.Record); err != nil {
			return nil, fmt.Errorf("sample %s: record: %w", smp.SampleID, err)
		}
		r.APIName, r.APIHost = firstNonEmpty(r.APIName, smp.APIName), firstNonEmpty(r.APIHost, smp.APIHost)
		o := origins[smp.ID]
		u := Unit{RowID: smp.ID, SampleID: smp.SampleID, API: release.APIKey(&r), Host: r.APIHost, Cluster: o.Cluster,
			DocMatchType:   firstNonEmpty(r.APIMetadata.DocMatchType, smp.DocMatchType),
			CommentsSource: firstNonEmpty(r.CommentsSource, smp.CommentsSource), Method: r.APIMetadata.Method,
			AuthoredAt: r.GitHubInfo.FunctionAuthoredAt, DateUnknown: r.GitHubInfo.FunctionDateUnknown}
		if o.APISource == "rapidapi" {
			u.Provider = o.Owner
		}
		units = append(units, u)
	}
	return units, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Stage is the name split records its runs under.
const Stage = "split"

// Run assigns every sample of the store to a split (replacing earlier
// assignments) and returns the plan. It records itself as one run of the split
// stage, with its resolved options.
func Run(ctx context.Context, s *store.Store, opt Options) (*Plan, error) {
	opt = opt.withDefaults()
	return store.RecordRun(ctx, s, Stage, opt.RunArgs(), func(runID int64) (*Plan, error) { return run(ctx, s, opt, runID) })
}

func run(ctx context.Context, s *store.Store, opt Options, runID int64) (*Plan, error) {
	units, err := Units(ctx, s)
	if err != nil {
		return nil, err
	}
	p, err := Assign(units, opt)
	if err != nil {
		return nil, err
	}
	as := make([]store.SplitAssignment, 0, len(units))
	var left []Unit
	for _, u := range units {
		if p.Split[u.RowID] == "" {
			left = append(left, u)
			continue
		}
		as = append(as, store.SplitAssignment{SampleRowID: u.RowID, SampleID: u.SampleID, Split: p.Split[u.RowID], Family: p.Family[u.RowID], Seed: opt.Seed})
	}
	err = s.Update(ctx, func(tx *store.Tx) error {
		if err := tx.ReplaceSplits(ctx, as); err != nil {
			return err
		}
		for _, u := range left {
			ev := map[string]any{"time_cutoff": opt.TimeCutoff, "family": p.Family[u.RowID], "api": u.API}
			if u.AuthoredAt != "" {
				ev["function_authored_at"] = u.AuthoredAt
			}
			if err := tx.RecordDecision(ctx, store.Decision{RunID: runID, Stage: Stage, SubjectKind: "sample", Subject: u.SampleID,
				Verdict: store.Rejected, Reason: p.LeftOut[u.RowID], Evidence: ev}); err != nil {
				return err
			}
		}
		if w := p.Report.Within; w != nil {
			if err := tx.RecordDecision(ctx, store.Decision{RunID: runID, Stage: Stage, SubjectKind: "split", Subject: "families",
				Verdict: store.Changed, Reason: w.Reason, Evidence: map[string]any{"families": w.Families, "placed": w.Units, "splits": w.Splits}}); err != nil {
				return err
			}
		}
		for _, sr := range p.Report.Splits {
			if sr.Target > 0 && sr.Samples == 0 {
				if err := tx.RecordDecision(ctx, store.Decision{RunID: runID, Stage: Stage, SubjectKind: "split", Subject: sr.Name,
					Verdict: store.Failed, Reason: "empty split", Evidence: map[string]any{"target": sr.Target, "families": p.Report.Families}}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("save splits: %w", err)
	}
	return p, nil
}
