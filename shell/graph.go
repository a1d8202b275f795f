package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/report"
)

// graph runs web and svg on the call graph of the shell's options and
// the command's arguments (node count, focus and ignore regexps, and for
// svg ">file"): web opens the web viewer's graph view and prints its URL,
// svg draws the graph as SVG, without Graphviz. As in pprof's shell, svg
// without a file writes a new profileNNN.svg in the current directory.
func (s *Shell) graph(name string, args []string) error {
	o := s.o
	out, err := parseReportArgs(&o, report.Dot, name, args)
	if err != nil {
		return err
	}
	p := s.p
	if len(o.ActiveFilters()) > 0 {
		p = p.Copy()
	}
	g, err := report.CallGraph(p, o) // the checks pprof makes: regexps, matches
	if err != nil {
		return err
	}
	if name == "web" {
		switch {
		case out != "":
			return errors.New("web: writes no file; use svg >file")
		case s.GraphView == nil:
			return errors.New("web: the web viewer is not available here; use svg >file")
		}
		url, err := s.GraphView(o)
		if err != nil {
			return fmt.Errorf("web: %w", err)
		}
		fmt.Fprintln(s.Stdout, url)
		return nil
	}
	var buf bytes.Buffer
	if err := graph.WriteInteractiveSVG(&buf, g); err != nil {
		return err
	}
	if out == "" {
		f, err := newFile("profile", ".svg")
		if err != nil {
			return err
		}
		out = f.Name()
		f.Close()
	}
	fmt.Fprintln(s.Stderr, "Generating report in", out)
	return atomicfile.Write(out, func(w io.Writer) error {
		_, err := buf.WriteTo(w)
		return err
	})
}

// newFile creates a new file in the current directory named prefix, a
// number from 001 up, and suffix, as pprof names its shell's outputs.
func newFile(prefix, suffix string) (*os.File, error) {
	for i := 1; i < 10000; i++ {
		f, err := os.OpenFile(fmt.Sprintf("%s%03d%s", prefix, i, suffix), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("no free name of the form %s001%s", prefix, suffix)
}
