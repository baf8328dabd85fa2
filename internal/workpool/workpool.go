// Package workpool runs n independent pieces of work on a bounded number of
// goroutines, stopping at the first error.
package workpool

import (
	"context"
	"runtime"
	"sync"
)

// ForEach runs fn(0), …, fn(n-1) on workers goroutines (GOMAXPROCS when workers is
// not positive) and returns the first error; after one, or once ctx is done, no new
// call starts, and ForEach returns when the calls running have returned.
func ForEach(ctx context.Context, workers, n int, fn func(i int) error) error {
	if n == 0 {
		return ctx.Err()
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					cancel(err)
				}
			}
		}()
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return context.Cause(ctx)
}
