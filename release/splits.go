package release

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// The split names, in the order they are listed and exported.
const (
	Train      = "train"
	Validation = "validation"
	Test       = "test"
)

// Names lists the splits in order.
var Names = []string{Train, Validation, Test}

// NormalizeName maps the spellings a release may use for a split to its name, or
// returns an error for an unknown one.
func NormalizeName(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "train", "training":
		return Train, nil
	case "validation", "valid", "val", "dev":
		return Validation, nil
	case "test", "testing":
		return Test, nil
	}
	return "", fmt.Errorf("unknown split %q (want train, validation or test)", s)
}

// SplitFromPath names the split a benchmark file holds from its name
// (splits/test.json → test, validation.jsonl → validation), or "" when the name
// is not a split's.
func SplitFromPath(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if n, err := NormalizeName(base); err == nil {
		return n
	}
	return ""
}

// FormatID is the published sample id for number n: SCG-000001.
func FormatID(n int) string { return fmt.Sprintf("SCG-%06d", n) }

// IDNumber returns n for an id SCG-n, or 0.
func IDNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "SCG-"))
	if err != nil || !strings.HasPrefix(id, "SCG-") {
		return 0
	}
	return n
}
