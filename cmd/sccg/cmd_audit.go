package main

import (
	"context"
	"errors"
	"fmt"

	"sccg/provenance"
	"sccg/store"
)

func runAudit(ctx context.Context, e *env, args []string) error {
	fs := e.flags("audit", "SAMPLE_ID")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one sample id (SCG-000001), got %d arguments", len(pos))
	}
	s, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	a, err := provenance.LoadAudit(ctx, s, pos[0])
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no sample %s in %s", pos[0], e.db)
	}
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(a)
	}
	return a.WriteText(e.stdout)
}
