package main

import "context"

func runExport(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 8}
}
