package pprofproto

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
)

// TestDecodeRealProfiles runs reporttest's real Go program, which writes
// two CPU profiles and every other kind of runtime profile in
// profile.proto and in the legacy debug=1 text format, and checks that
// Decode reads each exactly as profile.ParseData does.
func TestDecodeRealProfiles(t *testing.T) {
	dir := reporttest.Generate(t).Dir
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if want := 2 + 2*len(reporttest.Kinds); len(files) != want {
		t.Fatalf("workload wrote %d profiles, want %d", len(files), want)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raw := data
		if IsGzip(data) {
			if raw, err = Gunzip(data, -1); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			checkSame(t, f+" (gunzipped)", raw)
		}
		if p := checkSame(t, f, data); p == nil {
			t.Errorf("%s: ParseData and Decode both fail to read it", f)
		}
		if !strings.HasSuffix(f, ".txt") { // debug=1 files are legacy text
			mustBeFast(t, f, data)
		}
	}
}
