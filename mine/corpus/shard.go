package corpus

import (
	"context"
	"errors"
	"io"
)

// MineShard reads one corpus shard (named shard, relative to the corpus root) and
// judges every row with f, handing each record to emit. A shard that cannot be
// read to the end adds a failure decision after the rows read before the fault;
// its stats say how far it got. The error is emit's or ctx's.
func MineShard(ctx context.Context, f *Filter, format Format, shard string, r io.Reader, size int64, emit func(*Record) error) (ShardStats, error) {
	st := ShardStats{Shard: shard}
	err := Read(ctx, format, shard, r, size, func(index int64, row Row, bad string) error {
		rec, verdict := f.Judge(shard, index, row, bad)
		st.Add(row, verdict)
		if rec == nil {
			return nil
		}
		if err := emit(rec); err != nil {
			return emitError{err}
		}
		return nil
	})
	var ee emitError
	switch {
	case err == nil || ctx.Err() != nil:
		return st, err
	case errors.As(err, &ee):
		return st, ee.error
	}
	st.Error = err.Error()
	return st, emit(ShardFailure(shard, st.Rows, err))
}

// emitError marks an error of emit, so MineShard tells it from a read fault.
type emitError struct{ error }

func (e emitError) Unwrap() error { return e.error }
