package demo

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/examples/havlak"
)

// srcDir is the directory, under the profile directory, that receives the
// workload's source: the saved profiles name its files, so that perflab
// list, escapes and the viewer's source view find them on any machine.
const srcDir = "src"

// havlakModule is the go.mod the workload's source is built with there.
var havlakModule = "module " + havlakPath + "\n\ngo 1.26\n"

// writeSource writes the workload's embedded source and a go.mod to
// dir/src and returns that directory's absolute path.
func writeSource(dir string) (string, error) {
	src, err := filepath.Abs(filepath.Join(dir, srcDir))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	err = fs.WalkDir(havlak.Source, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(havlak.Source, name)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(src, name), data, 0o644)
	})
	if err != nil {
		return "", err
	}
	return src, os.WriteFile(filepath.Join(src, "go.mod"), []byte(havlakModule), 0o644)
}

// pointToSource makes the workload functions of p name the files of the
// copy of the source in src.
func pointToSource(p *profile.Profile, src string) {
	for _, f := range p.Function {
		if strings.HasPrefix(f.Name, havlakPrefix) && embedded(path.Base(f.Filename)) {
			f.Filename = filepath.Join(src, path.Base(f.Filename))
		}
	}
}

// embedded reports whether the workload file name is compiled in.
func embedded(name string) bool {
	_, err := fs.Stat(havlak.Source, name)
	return err == nil
}

// sourceLine returns line n of the workload file named file (its base
// name counts), trimmed, or "".
func sourceLine(file string, n int) string {
	data, err := fs.ReadFile(havlak.Source, path.Base(filepath.ToSlash(file)))
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
