package main

import "context"

func runEval(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 7}
}
