package web_test

import (
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// TestSourceRefusesProcFiles: the source view of a profile whose source
// file is the server's /proc/self/environ shows why there is no source,
// not the server's environment (issue 24.3).
func TestSourceRefusesProcFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc/self/environ")
	}
	srv := serve(t, reporttest.OneSample("/proc/self/environ"), web.Options{Report: report.DefaultOptions()})
	for _, path := range []string{"/ui/api/source?f=main.main", "/ui/source?f=main.main"} {
		code, body := get(t, srv, path)
		if code != http.StatusOK || strings.Contains(body, "PATH=") || !strings.Contains(body, "under /proc, /sys or /dev") {
			t.Errorf("%s: status %d, body %.300q; want the file refused", path, code, body)
		}
	}
}
