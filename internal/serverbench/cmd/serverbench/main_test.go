package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestUsage checks that a missing or unknown command, a bad flag, an
// argument and a missing -perflab are usage errors, told on stderr.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"push", "-nope"}, {"push"}, {"scrape", "-perflab", "x", "extra"}, {"push", "-perflab", "x", "-rounds", "1"}} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, &stdout, &stderr)
		if !errors.Is(err, errUsage) || stderr.Len() == 0 || stdout.Len() != 0 {
			t.Errorf("serverbench %s: %v, stderr %q; want a usage error told on stderr", strings.Join(args, " "), err, stderr.String())
		}
	}
}
