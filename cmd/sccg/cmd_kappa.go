package main

import "context"

func runKappa(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 7}
}
