package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path, data string
		wantErr          string
	}{
		{"new file in a new directory", filepath.Join(dir, "a", "b", "out.json"), "{}\n", ""},
		{"replaces an old file", filepath.Join(dir, "a", "b", "out.json"), "[1]\n", ""},
		{"empty file", filepath.Join(dir, "empty.txt"), "", ""},
		{"directory in the way", filepath.Join(dir, "a"), "x", "write " + filepath.Join(dir, "a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Write(tt.path, []byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Write = %v, want an error naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(tt.path)
			if err != nil || string(got) != tt.data {
				t.Fatalf("read back %q, %v; want %q", got, err, tt.data)
			}
			if _, err := os.Stat(tt.path + ".tmp"); !os.IsNotExist(err) {
				t.Errorf("the temporary file is left behind: %v", err)
			}
		})
	}
}
