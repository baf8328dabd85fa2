package main

import (
	"context"
	"encoding/json"
	"fmt"

	"sccg/provenance"
)

// report writes what a command's runs rejected to stderr, before the command's
// own summary; with --json it writes nothing (printJSONWith carries it).
func (e *env) report(r *provenance.Rejections) {
	if r == nil || e.json || len(r.Groups) == 0 {
		return
	}
	r.Write(e.stderr, "")
}

// reported reports what the watch's runs rejected — also when the stage failed
// (runErr), whose error it then returns — and returns it for printJSONWith.
func (e *env) reported(ctx context.Context, w *provenance.Watch, runErr error) (*provenance.Rejections, error) {
	r, err := w.Collect(context.WithoutCancel(ctx))
	if err != nil {
		err = fmt.Errorf("read the run's decisions: %w", err)
	} else {
		e.report(r)
	}
	if runErr != nil {
		return r, runErr
	}
	return r, err
}

// printJSONWith prints v (a JSON object) with a "rejections" field added.
func (e *env) printJSONWith(v any, r *provenance.Rejections) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		m = map[string]json.RawMessage{"result": b}
	}
	if r == nil {
		r = &provenance.Rejections{Groups: []provenance.RejectionGroup{}}
	}
	if m["rejections"], err = json.Marshal(r); err != nil {
		return err
	}
	return e.printJSON(m)
}
