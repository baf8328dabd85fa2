package prompts

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sccg/internal/atomicfile"
)

// Encode writes prompts as JSON Lines.
func Encode(w io.Writer, ps []Prompt) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, p := range ps {
		if err := enc.Encode(p); err != nil {
			return fmt.Errorf("encode prompt %s: %w", p.SampleID, err)
		}
	}
	return nil
}

// WriteFile writes prompts to path atomically (a temporary file renamed), so a
// killed run never leaves half a prompts file.
func WriteFile(path string, ps []Prompt) error {
	var b bytes.Buffer
	if err := Encode(&b, ps); err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write prompts: %w", err)
		}
	}
	return atomicfile.Write(path, b.Bytes())
}

// ReadFile reads a prompts file. A line that is not a prompt, or a prompt without
// sample_id or messages, is an error naming the line; a prompt_hash that does not
// match the messages is one too (the file was edited by hand).
func ReadFile(path string) ([]Prompt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read prompts: %w", err)
	}
	defer f.Close()
	var out []Prompt
	br := bufio.NewReaderSize(f, 1<<20)
	seen := map[string]int{}
	for ln := 1; ; ln++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var p Prompt
			if jerr := json.Unmarshal(line, &p); jerr != nil {
				return nil, fmt.Errorf("read prompts %s line %d: %w", path, ln, jerr)
			}
			switch {
			case p.SampleID == "":
				return nil, fmt.Errorf("read prompts %s line %d: no sample_id", path, ln)
			case len(p.Messages) == 0:
				return nil, fmt.Errorf("read prompts %s line %d: no messages", path, ln)
			case p.PromptHash != "" && p.PromptHash != Hash(p.Messages):
				return nil, fmt.Errorf("read prompts %s line %d: prompt_hash does not match the messages", path, ln)
			}
			if p.PromptHash == "" {
				p.PromptHash = Hash(p.Messages)
			}
			key := p.Setting + "\x1f" + p.SampleID
			if prev, dup := seen[key]; dup {
				return nil, fmt.Errorf("read prompts %s line %d: %s %s already prompted on line %d", path, ln, p.Setting, p.SampleID, prev)
			}
			seen[key] = ln
			out = append(out, p)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read prompts %s: %w", path, err)
		}
	}
}
