package evaluate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"sccg/internal/atomicfile"
)

// EncodeGenerations writes generations as JSON Lines, one completion a line.
func EncodeGenerations(b *bytes.Buffer, gens []Generation) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	for _, g := range gens {
		if err := enc.Encode(g); err != nil {
			return fmt.Errorf("encode generation %s: %w", g.SampleID, err)
		}
	}
	return nil
}

// WriteGenerations writes a generations file atomically (a temporary file renamed),
// so a killed run never leaves half of one.
func WriteGenerations(path string, gens []Generation) error {
	var b bytes.Buffer
	if err := EncodeGenerations(&b, gens); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write generations: %w", err)
	}
	return atomicfile.Write(path, b.Bytes())
}
