package store

import "context"

// Counted is what every stage's result satisfies: its figures as a run records them.
type Counted interface {
	Counts() map[string]int64
}

// CountedPtr is a pointer to a stage's result type T, as stages return it (nil when
// they fail before they have one).
type CountedPtr[T any] interface {
	*T
	Counted
}

// RecordRun runs fn as one recorded run of stage: it begins the run with args (the
// stage's resolved options), hands fn the run's id for the decisions and work units
// it records, and finishes the run with the counts of fn's result and its error (a
// cancelled run is recorded as cancelled). It is the one way a stage records a run.
func RecordRun[T any, P CountedPtr[T]](ctx context.Context, s *Store, stage string, args map[string]any, fn func(runID int64) (P, error)) (P, error) {
	run, err := s.BeginRun(ctx, stage, args)
	if err != nil {
		return nil, err
	}
	res, err := fn(run.ID)
	if res != nil {
		run.Counts = res.Counts()
	}
	if ferr := s.FinishRun(ctx, run, err); err == nil {
		err = ferr
	}
	return res, err
}
