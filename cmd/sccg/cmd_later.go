package main

import "context"

// Commands whose work has no issue filed yet.

func runPrompts(ctx context.Context, e *env, args []string) error { return errNotBuilt{} }

func runGenerate(ctx context.Context, e *env, args []string) error { return errNotBuilt{} }

func runBaseline(ctx context.Context, e *env, args []string) error { return errNotBuilt{} }
