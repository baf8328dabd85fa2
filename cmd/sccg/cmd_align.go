package main

import "context"

func runAlign(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 6}
}
