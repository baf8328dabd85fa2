package main

import "context"

func runCompare(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 7}
}
