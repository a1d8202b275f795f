package goroutines_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

// TestFormats reads the dumps of testdata/formats/*.txtar, written from
// the formats Go 1.13 to 1.27 document and print (see each file's
// comment), and checks the groups against the file's "want" section, and
// the decoding of the panicking frame's arguments against "args" given the
// parameters in "params".
func TestFormats(t *testing.T) {
	files, _ := filepath.Glob("testdata/formats/*.txtar")
	if len(files) < 10 {
		t.Fatalf("%d fixtures", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			comment, sections := readTxtar(t, file)
			dump := sections["dump"]
			if strings.Contains(comment, "\ncut\n") {
				dump = strings.TrimSuffix(dump, "\n")
			}
			d := goroutines.NewDump()
			s := goroutines.NewScanner(strings.NewReader(dump))
			for s.Scan() {
				d.Add(s.Goroutine())
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			if s.EndsMidLine() {
				d.Notes = append(d.Notes, "the dump ends mid-line")
			}
			d.Sort()
			got := summarize(d, s.Skipped())
			var want []string
			for _, l := range strings.Split(strings.TrimSpace(sections["want"]), "\n") {
				if note, ok := strings.CutPrefix(l, "note "); ok {
					if !strings.Contains(strings.Join(d.Notes, "\n"), note) {
						t.Errorf("no note says %q: %q", note, d.Notes)
					}
					continue
				}
				want = append(want, l)
			}
			if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
				t.Errorf("got:\n%s\nwant:\n%s", g, w)
			}
			if params, ok := sections["params"]; ok {
				checkArgs(t, d, params, sections["args"])
			}
		})
	}
}

// summarize writes one line per group, as the fixtures' "want" does.
func summarize(d *goroutines.Dump, skipped int) []string {
	out := []string{fmt.Sprintf("total %d", d.Total)}
	if d.Panic != "" {
		first, _, _ := strings.Cut(d.Panic, "\n")
		out = append(out, "panic "+first)
	}
	for _, g := range d.Groups {
		parts := []string{fmt.Sprint(g.Count)}
		if h := g.Heading(); h != "" {
			parts = append(parts, h)
		}
		top := g.Top()
		parts = append(parts, "top="+top.Func, fmt.Sprintf("at=%s:%d", filepath.Base(top.File), top.Line), fmt.Sprintf("frames=%d", len(g.Frames)))
		if c := g.CreatedBy; c != nil {
			parts = append(parts, fmt.Sprintf("created=%s at %s:%d", c.Func, filepath.Base(c.File), c.Line))
		}
		if g.Elided > 0 {
			parts = append(parts, fmt.Sprintf("elided=%d", g.Elided))
		}
		if g.Truncated > 0 {
			parts = append(parts, fmt.Sprintf("truncated=%d", g.Truncated))
		}
		if g.Panic != "" {
			parts = append(parts, "panicked")
		}
		out = append(out, strings.Join(parts, " "))
	}
	if skipped > 0 {
		out = append(out, fmt.Sprintf("skipped %d", skipped))
	}
	return out
}

func checkArgs(t *testing.T, d *goroutines.Dump, params, want string) {
	t.Helper()
	var ps []goroutines.Param
	for _, p := range strings.Split(strings.TrimSpace(params), ", ") {
		name, typ, _ := strings.Cut(p, " ")
		ps = append(ps, goroutines.Param{Name: name, Type: typ})
	}
	g := d.Groups[0]
	f := g.Example.Frames[g.UserFrame()]
	var got []string
	for _, a := range goroutines.DecodeArgs(f.Args, ps) {
		got = append(got, a.Name+" "+a.Type+" = "+a.Text)
	}
	if g, w := strings.Join(got, "\n"), strings.TrimSpace(want); g != w {
		t.Errorf("arguments %q decoded as:\n%s\nwant:\n%s", f.Args, g, w)
	}
}

// readTxtar reads a txtar archive: a comment, then "-- name --" sections.
func readTxtar(t *testing.T, file string) (comment string, sections map[string]string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections = make(map[string]string)
	name := ""
	var cur bytes.Buffer
	flush := func() {
		if name == "" {
			comment = cur.String()
		} else {
			sections[name] = cur.String()
		}
		cur.Reset()
	}
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --\n") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --\n")
			continue
		}
		cur.WriteString(l)
	}
	flush()
	return comment, sections
}
