package demo

import (
	"bytes"
	"context"
	"regexp"
	"testing"
)

// TestProgress checks that Run tells Options.Progress how both runs go,
// and ends each with "".
func TestProgress(t *testing.T) {
	var got []string
	progress := func(s string) { got = append(got, s) }
	if _, err := Run(context.Background(), &bytes.Buffer{}, Options{Reps: 1, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	var naive, tuned, cleared bool
	for _, s := range got {
		naive = naive || regexp.MustCompile(`^naive: 2 of 2 searches done, \d+\.\ds$`).MatchString(s)
		tuned = tuned || regexp.MustCompile(`^tuned: 1 of 2 searches done`).MatchString(s)
		cleared = cleared || s == ""
	}
	if !naive || !tuned || !cleared || got[len(got)-1] != "" {
		t.Errorf("progress reports %q: want both runs' counts, each run ended by \"\"", got)
	}
}
