package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestUsage checks that a missing or unknown command, a bad flag and a
// missing -cache are usage errors, told on stderr.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"merge", "-nope"}, {"build"}, {"size", "extra"}} {
		var stdout, stderr bytes.Buffer
		err := run(args, &stdout, &stderr)
		if !errors.Is(err, errUsage) || stderr.Len() == 0 || stdout.Len() != 0 {
			t.Errorf("storebench %s: %v, stderr %q; want a usage error told on stderr", strings.Join(args, " "), err, stderr.String())
		}
	}
}
