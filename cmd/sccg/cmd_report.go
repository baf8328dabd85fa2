package main

import "context"

func runReport(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 7}
}
