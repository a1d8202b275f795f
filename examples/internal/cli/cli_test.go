package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"testing"
)

func TestExitStatus(t *testing.T) {
	tests := []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, 0, ""},
		{FlagError{flag.ErrHelp}, 0, ""},
		{FlagError{errors.New("flag provided but not defined: -x")}, 2, ""},
		{UsageError{errors.New("-reps=-1: must not be negative")}, 2, "prog: -reps=-1: must not be negative\n"},
		{fmt.Errorf("wrapped: %w", UsageError{errors.New("bad")}), 2, "prog: wrapped: bad\n"},
		{errors.New("disk full"), 1, "prog: disk full\n"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		if code := ExitStatus("prog", tt.err, &stderr); code != tt.code || stderr.String() != tt.stderr {
			t.Errorf("ExitStatus(%v) = %d, stderr %q; want %d, %q", tt.err, code, stderr.String(), tt.code, tt.stderr)
		}
	}
}
