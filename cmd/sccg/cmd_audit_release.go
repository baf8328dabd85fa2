package main

import "context"

func runAuditRelease(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 6}
}
