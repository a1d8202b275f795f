package web_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/tracegen/craft"
	"github.com/perflab/perflab/web"
)

// TestTraceCraftedGenerationsRefused serves a real trace followed by
// 200,000 crafted generations of one batch each, as the hostile trace of
// issue 24.8 has 5.36 million: NewTrace refuses it at once with one line,
// as perflab trace does, instead of indexing every generation, showing a
// trace of negative length and reading in the background for days.
func TestTraceCraftedGenerationsRefused(t *testing.T) {
	buf := bytes.NewBuffer(append([]byte(nil), tracedData(t)...))
	if err := craft.Append(buf, 200_000, craft.Options{First: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	start := time.Now()
	ts, err := web.NewTrace(t.Context(), bytes.NewReader(data), int64(len(data)), web.TraceOptions{Title: "hostile.trace"})
	if err == nil {
		t.Fatalf("served a trace of %v", ts.Duration())
	}
	if !errors.Is(err, exectrace.ErrCorrupt) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no clock snapshot") {
		t.Errorf("err = %q, want one line wrapping ErrCorrupt that says why", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refused after %v", d)
	}
}
