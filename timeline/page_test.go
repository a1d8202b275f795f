package timeline_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/timeline"
)

func TestPageEscapes(t *testing.T) {
	tl := &exectrace.Tiles{End: time.Second, Columns: 1, Procs: []exectrace.Lane{{Busy: []float32{0.5}}},
		STW: []exectrace.Band{{Start: 0, End: time.Millisecond, Name: "</script><b>x</b>"}}}
	var buf bytes.Buffer
	p := &timeline.Page{Title: "<i>t</i>", Summary: "a < b", Tiles: tl}
	if err := p.Render(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<i>t</i>", "</script><b>", "a < b"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q unescaped", bad)
		}
	}
	if !strings.Contains(page, "perflabTimeline.render") || !strings.Contains(page, `"busy":[0.5]`) {
		t.Errorf("page lacks the script or the tiles")
	}
}
