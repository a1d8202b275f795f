package profiles

import (
	"bytes"
	"context"
	"testing"
)

// TestStdin loads the source "-" from Options.Stdin, and checks that
// without one it is an error rather than a read of the process's stdin.
func TestStdin(t *testing.T) {
	data := ownProfile(t, "goroutine", 0)
	p, err := Load(context.Background(), []string{"-"}, Options{Stdin: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sample) == 0 {
		t.Error("no samples read from Options.Stdin")
	}
	p, err = Load(context.Background(), []string{"-"}, Options{})
	checkError(t, p, err, "-: ", "no standard input")
}
