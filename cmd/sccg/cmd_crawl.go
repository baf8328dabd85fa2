package main

import "context"

func runCrawl(ctx context.Context, e *env, args []string) error {
	return errNotBuilt{issue: 3}
}
