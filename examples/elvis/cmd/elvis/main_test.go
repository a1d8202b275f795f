package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	for _, alg := range []string{"reader", "scan"} {
		var out bytes.Buffer
		if err := replace(alg, strings.NewReader("elvielviselvis e l v i s"), &out); err != nil {
			t.Fatalf("-alg=%s: %v", alg, err)
		}
		if want := "elviElvisElvis e l v i s"; out.String() != want {
			t.Errorf("-alg=%s: got %q, want %q", alg, out.String(), want)
		}
	}
	err := replace("fast", strings.NewReader(""), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-alg=fast") {
		t.Errorf("unknown algorithm: got %v, want an error naming -alg=fast", err)
	}
}

// TestCommandLine runs the whole command: flags, standard input and
// output, and the exit status.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		args             []string
		code             int
		stdout, inStderr string
	}{
		{nil, 0, "elviElvis\n", ""},
		{[]string{"-alg=reader"}, 0, "elviElvis\n", ""},
		{[]string{"-alg=fast"}, 1, "", "elvis: -alg=fast"},
		{[]string{"-nosuchflag"}, 2, "", "-nosuchflag"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, strings.NewReader("elvielvis\n"), &stdout, &stderr)
		if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.inStderr) {
			t.Errorf("elvis %q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr holding %q",
				tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.inStderr)
		}
	}
}
