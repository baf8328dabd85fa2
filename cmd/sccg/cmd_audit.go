package main

import "context"

func runAudit(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 8}
}
