package report

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestShellGreetLeavesProfile checks that the greeting describes the
// profile without changing it: the shell reads it in place, uncopied.
func TestShellGreetLeavesProfile(t *testing.T) {
	p := seedProfile()
	before := p.String()
	var stderr bytes.Buffer
	if err := NewShell(p, DefaultOptions(), io.Discard, &stderr).Run(strings.NewReader("")); err != nil {
		t.Fatal(err)
	}
	if p.String() != before {
		t.Error("the greeting changed the profile")
	}
	for _, want := range []string{"File: prog\n", "Type: delay\n", "Entering interactive mode"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("greeting lacks %q:\n%s", want, stderr.String())
		}
	}
}
