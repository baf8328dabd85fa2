package main

import "context"

func runImport(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 8}
}
