package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	for _, alg := range []string{"reader", "scan"} {
		var out bytes.Buffer
		if err := run(alg, strings.NewReader("elvielviselvis e l v i s"), &out); err != nil {
			t.Fatalf("-alg=%s: %v", alg, err)
		}
		if want := "elviElvisElvis e l v i s"; out.String() != want {
			t.Errorf("-alg=%s: got %q, want %q", alg, out.String(), want)
		}
	}
	err := run("fast", strings.NewReader(""), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-alg=fast") {
		t.Errorf("unknown algorithm: got %v, want an error naming -alg=fast", err)
	}
}
