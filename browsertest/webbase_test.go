package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/testprog"
)

// TestWebUploadBase chooses the diff base in the UI: the file input of
// the menu uploads it, the page reopens with base=ID and draws red and
// blue; the URL opens the same comparison again; a file that is not a
// profile shows its error in place; "Clear base" goes back.
func TestWebUploadBase(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	dir := t.TempDir()
	newer := profgen.Small
	newer.MaxDepth = 25 // the same functions, shallower stacks: some frames grow, deep ones shrink
	old := genProfile(t, profgen.Small, dir, "old.pb.gz")
	srv := webServer(t, perflab, genProfile(t, newer, dir, "new.pb.gz"))

	p := openView(t, b, srv+"/ui/flamegraph?si=cpu")
	if !evalT[bool](t, p, `document.body.dataset.diff === "false" && !!document.getElementById("base-file")`) {
		t.Fatal("the flame graph has no base upload or is a diff already")
	}
	if err := p.SetUploadFiles("#base-file", []string{old}); err != nil {
		t.Fatal(err)
	}
	cond := `new URLSearchParams(location.search).get("base") && document.body.dataset.diff === "true" && document.body.dataset.ready === "1"`
	waitFor(t, p, cond)
	waitFor(t, p, `document.getElementById("base-name").textContent === "old.pb.gz"`)
	if si := evalT[string](t, p, `new URLSearchParams(location.search).get("si")`); si != "cpu" {
		t.Errorf("the upload lost the page's settings: si=%q", si)
	}
	red, blue := diffInk(t, p)
	if red < 100 || blue < 100 {
		t.Errorf("diff against the uploaded base drew %d red and %d blue pixels, want both", red, blue)
	}
	browser.ScreenshotForTest(t, p, "web-diff-upload")
	noErrors(t, p, "upload")
	diffURL := evalT[string](t, p, `location.href`)

	// The comparison is the server's: the URL reopens it, in other views too.
	p2 := openView(t, b, diffURL)
	if !evalT[bool](t, p2, `document.body.dataset.diff === "true"`) {
		t.Error("reopening the diff URL did not show the diff")
	}
	if !evalT[bool](t, p2, `[...document.querySelectorAll("#views a")].every((a) => new URLSearchParams(a.search).get("base"))`) {
		t.Error("the view links drop the base")
	}
	top := openView(t, b, strings.Replace(diffURL, "/ui/flamegraph", "/ui/top", 1))
	if n := evalT[int](t, top, `document.querySelectorAll("#top tbody tr").length`); n == 0 || !evalT[bool](t, top, `document.body.dataset.diff === "true"`) {
		t.Errorf("top with the base: %d rows", n)
	}
	noErrors(t, top, "top with the base")

	// Clear base goes back to the profile alone, keeping the settings.
	evalT[bool](t, p2, `(document.getElementById("base-clear").click(), true)`)
	waitFor(t, p2, `!new URLSearchParams(location.search).has("base") && document.body.dataset.diff === "false" && document.body.dataset.ready === "1"`)
	noErrors(t, p2, "clear base")

	// A file that is not a profile: the error in place, the page stays.
	bad := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(bad, []byte("<script>not a profile</script>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p3 := openView(t, b, srv+"/ui/flamegraph")
	if err := p3.SetUploadFiles("#base-file", []string{bad}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p3, `document.getElementById("base-status").className === "error"`)
	msg := evalT[string](t, p3, `document.getElementById("base-status").textContent`)
	if !strings.Contains(msg, "notes.txt") || evalT[bool](t, p3, `new URLSearchParams(location.search).has("base")`) {
		t.Errorf("bad upload: status %q", msg)
	}
	for _, e := range p3.Errors() { // the refused upload's 400 is logged, nothing else may be
		if !strings.Contains(e, "400") {
			t.Errorf("bad upload: console error %s", e)
		}
	}
	browser.ScreenshotForTest(t, p3, "web-diff-upload-error")
}
