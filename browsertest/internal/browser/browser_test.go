package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCollectsErrors checks that console errors, uncaught exceptions and
// failed loads reach Errors, so that "no console errors" checks can fail.
func TestCollectsErrors(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "bad.html")
	html := `<!DOCTYPE html><html><body><canvas id=c width=50 height=50></canvas>
<script>
console.log("fine");
console.error("boom one");
const ctx = document.getElementById("c").getContext("2d");
ctx.fillRect(0, 0, 10, 10);
ctx.fillStyle = "#1f77b4";
ctx.fillRect(20, 20, 5, 5);
</script>
<script src="missing.js"></script>
<script>null.nothing;</script>
</body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	b := ForTest(t)
	p, err := b.Open("file://"+page, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	want := []string{"boom one", "null", "missing.js"}
	var errs []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		errs = p.Errors()
		if containsAll(errs, want) {
			break
		}
	}
	if !containsAll(errs, want) {
		t.Errorf("Errors() = %q, want mentions of %q", errs, want)
	}
	for _, e := range errs {
		if strings.Contains(e, "fine") {
			t.Errorf("console.log reported as an error: %q", e)
		}
	}
	for _, tt := range []struct {
		rgb  string
		want int
	}{{"", 125}, {"color", 25}, {"#1f77b4", 25}, {"#000000", 100}} {
		ink, err := CanvasInk(p, "canvas", tt.rgb)
		if err != nil || len(ink) != 1 || ink[0] != tt.want {
			t.Errorf("CanvasInk(%q) = %v, %v; want [%d]", tt.rgb, ink, err, tt.want)
		}
	}
	shot := ScreenshotForTest(t, p, "browser-errors")
	if png, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("screenshot %s is not a PNG file (%d bytes, err %v)", shot, len(png), err)
	}
}

func containsAll(errs, want []string) bool {
	all := strings.Join(errs, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			return false
		}
	}
	return true
}
