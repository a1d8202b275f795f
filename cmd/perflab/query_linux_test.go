package main

import (
	"context"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/term/termtest"
	"github.com/perflab/perflab/store/storetest"
)

// TestQueryRefusesTerminal checks that perflab query does not write a
// profile to a terminal, with one line that says what to do.
func TestQueryRefusesTerminal(t *testing.T) {
	url, _ := fleetServer(t, storetest.Fixture()...)
	pty := termtest.Open(t)
	var stderr strings.Builder
	err := run(context.Background(), nil, pty.TTY, &stderr, []string{"query", "-store", url, "-from", rfc3339(storetest.Epoch), `{service_name="api"}`})
	if err == nil || !strings.Contains(err.Error(), "standard output is a terminal: give -o FILE") {
		t.Errorf("perflab query to a terminal: %v, want a refusal", err)
	}
	if s := pty.Screen(t); s != "" {
		t.Errorf("perflab query wrote %q to the terminal", s)
	}
}
