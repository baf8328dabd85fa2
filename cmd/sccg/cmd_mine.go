package main

import "context"

func runMine(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 4}
}
