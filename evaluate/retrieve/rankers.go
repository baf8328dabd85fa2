package retrieve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sccg/store"
)

// TrainKey names what a model is trained on: the ranker's version and features,
// the options, every document (its ID and indexed text) and every query (its
// text and label). Training is deterministic, so equal keys give equal models.
func TrainKey(c *Corpus, qs []Query, o TrainOptions) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.Encode([]any{RankerVersion, LearnedFeatures, Lambdas, o.BM25, o.Lambda, o.Folds})
	for i := range c.Docs {
		enc.Encode([]string{c.Docs[i].ID, c.Docs[i].Key, c.Docs[i].Text()})
	}
	for _, q := range qs {
		enc.Encode([]any{q.SampleID, q.Text, q.Truth.Hosts, q.Truth.Route, q.Truth.Method, q.EndpointID})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Trained is a model the store holds: its id there, and whether an earlier run
// had trained it already.
type Trained struct {
	Model  *RankerModel `json:"model"`
	ID     int64        `json:"id"`
	Reused bool         `json:"reused"`
}

// Counts are the training's figures as its run records them.
func (t *Trained) Counts() map[string]int64 {
	i := t.Model.Training
	c := map[string]int64{"samples": int64(i.Samples), "apis": int64(i.APIs), "documents": int64(i.Documents)}
	for _, n := range i.Dropped {
		c["dropped"] += int64(n)
	}
	return c
}

// TrainStored trains the learned ranker (Train) and keeps it in the store, as
// one recorded run of store.StageTrainRanker; a model the store already holds
// for the same inputs (TrainKey) is returned instead of training again.
func TrainStored(ctx context.Context, st *store.Store, c *Corpus, qs []Query, o TrainOptions) (*Trained, error) {
	key := TrainKey(c, qs, o)
	if r, err := st.RankerByKey(ctx, key); err == nil {
		m, err := DecodeRanker(r)
		if err != nil {
			return nil, err
		}
		return &Trained{Model: m, ID: r.ID, Reused: true}, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	args := map[string]any{"source": o.Source, "docs": o.DocsSource, "documents": c.Len(), "samples": len(qs),
		"k1": o.BM25.K1, "b": o.BM25.B, "lambda": o.Lambda, "folds": o.Folds, "train_key": key}
	return store.RecordRun(ctx, st, store.StageTrainRanker, args, func(runID int64) (*Trained, error) {
		m, err := Train(ctx, c, qs, o)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("encode ranker: %w", err)
		}
		name := fmt.Sprintf("%s (documents: %s)", o.Source, o.DocsSource)
		var id int64
		err = st.Update(ctx, func(tx *store.Tx) (err error) {
			id, err = tx.SaveRanker(ctx, store.Ranker{TrainKey: key, Name: name, Model: string(b), RunID: runID})
			return err
		})
		if err != nil {
			return nil, err
		}
		return &Trained{Model: m, ID: id}, nil
	})
}

// StoredRanker is ranker id of the store, or the one stored last when id is 0.
// It wraps store.ErrNotFound when there is none.
func StoredRanker(ctx context.Context, st *store.Store, id int64) (*Trained, error) {
	var r store.Ranker
	var err error
	if id > 0 {
		r, err = st.RankerByID(ctx, id)
	} else {
		r, err = st.LatestRanker(ctx)
	}
	if err != nil {
		return nil, err
	}
	m, err := DecodeRanker(r)
	if err != nil {
		return nil, err
	}
	return &Trained{Model: m, ID: r.ID, Reused: true}, nil
}

// DecodeRanker reads a stored ranker's model; one this sccg cannot apply (other
// features: an older version) is an error that says to train it again.
func DecodeRanker(r store.Ranker) (*RankerModel, error) {
	var m RankerModel
	if err := json.Unmarshal([]byte(r.Model), &m); err != nil {
		return nil, fmt.Errorf("ranker %d: %w", r.ID, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("ranker %d: %w", r.ID, err)
	}
	return &m, nil
}

// Describe is a line saying what a model was trained on and how.
func (m *RankerModel) Describe() string {
	t := m.Training
	var b strings.Builder
	fmt.Fprintf(&b, "trained on %s: %d samples of %d APIs, %d documents from %s", t.Source, t.Samples, t.APIs, t.Documents, t.DocsSource)
	if len(t.Dropped) > 0 {
		fmt.Fprintf(&b, " (%s left out)", droppedText(t.Dropped))
	}
	fmt.Fprintf(&b, "; λ %g", m.Lambda)
	if t.Folds > 0 {
		fmt.Fprintf(&b, " chosen by %d-fold cross-validation by API", t.Folds)
	}
	return b.String()
}

// Weight is one feature's weight in a model.
type Weight struct {
	Feature string  `json:"feature"`
	Weight  float64 `json:"weight"`
}

// TopWeights are the model's largest weights (by size), at most n.
func (m *RankerModel) TopWeights(n int) []Weight {
	var ws []Weight
	for i, f := range m.Features {
		if m.Weights[i] != 0 {
			ws = append(ws, Weight{f, m.Weights[i]})
		}
	}
	slices.SortStableFunc(ws, func(a, b Weight) int {
		x, y := a.Weight, b.Weight
		if x < 0 {
			x = -x
		}
		if y < 0 {
			y = -y
		}
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return strings.Compare(a.Feature, b.Feature)
	})
	return ws[:min(n, len(ws))]
}
