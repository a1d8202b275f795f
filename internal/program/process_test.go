package program

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

// TestStartErrors: a program that cannot start says why, with the cause
// in the chain.
func TestStartErrors(t *testing.T) {
	_, err := Start(context.Background(), Config{Argv: []string{filepath.Join(t.TempDir(), "missing")}})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing program: %v; want fs.ErrNotExist in the chain", err)
	}
	if _, err := Parse(nil); err == nil {
		t.Error("Parse(nil): no error")
	}
}
