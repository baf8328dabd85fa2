package main

import "context"

func runExtract(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 5}
}
