package compilenotes

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/namedfile"
)

// ResolveTrimmed points the file names of a profile from a binary built
// with -trimpath ("example.com/m/pkg/file.go") at the source on this
// machine: each directory part is looked up as an import path with go
// list, run in dir ("" for the current directory), so packages of the
// module there and of its dependencies are found. Names that are absolute
// or not found are left as they are. It returns how many functions it
// pointed at local files.
func ResolveTrimmed(ctx context.Context, p *profile.Profile, dir string, o Options) int {
	var paths []string
	seen := map[string]bool{}
	for _, fn := range p.Function {
		f := fn.Filename
		if f == "" || filepath.IsAbs(f) || !strings.HasSuffix(f, ".go") || !strings.Contains(path.Dir(f), ".") {
			continue // std packages have no dot in their first element; they are not the user's code
		}
		if ip := path.Dir(f); !seen[ip] {
			seen[ip] = true
			paths = append(paths, ip)
		}
	}
	if len(paths) == 0 {
		return 0
	}
	out, err := goOutput(ctx, o, dir, append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}"}, paths...)...)
	if err != nil && len(out) == 0 {
		return 0
	}
	dirs := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if ip, d, ok := strings.Cut(line, "\t"); ok && d != "" {
			dirs[ip] = d
		}
	}
	n := 0
	for _, fn := range p.Function {
		d, ok := dirs[path.Dir(fn.Filename)]
		if !ok || filepath.IsAbs(fn.Filename) {
			continue
		}
		local := filepath.Join(d, path.Base(fn.Filename))
		if fi, err := os.Stat(local); err == nil && fi.Mode().IsRegular() && namedfile.Check(local) == nil {
			fn.Filename = local
			n++
		}
	}
	return n
}
