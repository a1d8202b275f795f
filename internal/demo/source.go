package demo

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/examples/havlak"
	"github.com/perflab/perflab/report"
)

// listSource writes report list for the function fn (a full name) of the
// CPU profile p, reading the workload's source from the copy compiled into
// the binary: the files are written to a temporary directory and the
// profile's file names pointed there.
func listSource(w io.Writer, p *profile.Profile, fn string) error {
	dir, err := os.MkdirTemp("", "perflab-demo-src-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, havlak.Source); err != nil {
		return err
	}
	p = p.Copy()
	for _, f := range p.Function {
		if strings.HasPrefix(f.Name, havlakPrefix) && embedded(path.Base(f.Filename)) {
			f.Filename = filepath.Join(dir, path.Base(f.Filename))
		}
	}
	o := report.DefaultOptions()
	o.Symbol = "^" + regexp.QuoteMeta(fn) + "$"
	o.SourcePath = dir
	return report.Generate(w, p, report.List, o)
}

// embedded reports whether the workload file name is compiled in.
func embedded(name string) bool {
	_, err := fs.Stat(havlak.Source, name)
	return err == nil
}

// sourceLine returns line n of the embedded workload file name, trimmed,
// or "".
func sourceLine(name string, n int) string {
	data, err := fs.ReadFile(havlak.Source, name)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return strings.TrimSpace(sc.Text())
		}
	}
	return ""
}
