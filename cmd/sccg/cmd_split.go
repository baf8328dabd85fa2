package main

import "context"

func runSplit(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 8}
}
