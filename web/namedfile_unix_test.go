//go:build unix

package web_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// TestSourceFIFOBinary: the source view of a profile whose mapping file
// is a FIFO says why it has no assembly, at once, and the server goes on
// answering (issue 24.5: it blocked in the open while holding the lock
// every view takes).
func TestSourceFIFOBinary(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "server")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	s, err := web.New(reporttest.MappedSample(fifo), web.Options{Report: report.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	// Not closed by a cleanup: with a handler blocked for ever, Close
	// would wait for ever too.
	srv := httptest.NewServer(s)
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, body := get(t, srv, "/ui/api/source?f=main.main")
		if code != http.StatusOK || !strings.Contains(body, fifo+": not a regular file") {
			t.Errorf("source view: status %d, %.300q; want the FIFO refused", code, body)
		}
		if code, _ := get(t, srv, "/ui/api/top"); code != http.StatusOK {
			t.Errorf("top after the source view: status %d", code)
		}
	}()
	select {
	case <-done:
		srv.Close()
	case <-time.After(20 * time.Second):
		t.Fatal("the source view of a FIFO binary still waiting after 20 s")
	}
}
