package mine

import (
	"context"
	"time"

	"sccg/internal/backoff"
)

// Clock is the miner's time source. Every wait goes through Sleep, which returns
// early with ctx.Err() when ctx is cancelled; tests pass a fake clock whose Sleep
// advances time without sleeping.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error { return backoff.Sleep(ctx, d) }
