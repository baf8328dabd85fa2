package main

import "context"

func runDecontam(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 6}
}
