package main

import "context"

func runBuild(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 8}
}
