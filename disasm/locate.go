package disasm

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
)

// A BinaryError says which binary could not be used, and why.
type BinaryError struct {
	Path string
	Err  error
}

func (e *BinaryError) Error() string {
	cause := e.Err
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err
	}
	return "binary " + e.Path + ": " + cause.Error()
}

func (e *BinaryError) Unwrap() error { return e.Err }

// SearchPath returns where pprof looks for binaries: $PPROF_BINARY_PATH,
// else $HOME/pprof/binaries.
func SearchPath() string {
	if p := os.Getenv("PPROF_BINARY_PATH"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, "pprof", "binaries")
}

// Candidates lists, in pprof's order, the files along searchPath (a list
// of directories as in $PATH) that may hold mapping m's binary: by build
// ID, by base name, by full path and by the debug-file conventions of GDB
// and perf.
func Candidates(m *profile.Mapping, searchPath string) []string {
	var noVolume, base, dir string
	if m.File != "" {
		noVolume = strings.TrimPrefix(m.File, filepath.VolumeName(m.File))
		base = filepath.Base(m.File)
		dir = filepath.Dir(noVolume)
	}
	var names []string
	for _, path := range filepath.SplitList(searchPath) {
		if m.BuildID != "" {
			names = append(names, filepath.Join(path, m.BuildID, base))
			if matches, err := filepath.Glob(filepath.Join(path, m.BuildID, "*")); err == nil {
				names = append(names, matches...)
			}
			names = append(names, filepath.Join(path, noVolume, m.BuildID))
			if len(m.BuildID) > 2 {
				names = append(names, filepath.Join(path, m.BuildID[:2], m.BuildID[2:]+".debug"))
			}
		}
		if m.File != "" {
			names = append(names,
				filepath.Join(path, base),
				filepath.Join(path, noVolume),
				filepath.Join(path, noVolume+".debug"),
				filepath.Join(path, dir, ".debug", base+".debug"),
				filepath.Join(path, "usr", "lib", "debug", dir, base+".debug"))
		}
	}
	return names
}

// Locate points the profile's mappings at local binaries, as pprof does
// before a report: each mapping takes the first candidate along
// searchPath that opens and whose build ID matches; then, if binary is not
// "", the main (first) mapping's file becomes binary, which c opens with
// OpenArg (the user named it). A profile without mappings gets one, for
// binary to apply to.
func Locate(p *profile.Profile, binary, searchPath string, c *Cache) {
	if binary != "" {
		c.OpenArg(binary) // before the candidates, which may name it too
	}
	for _, m := range p.Mapping {
		for _, name := range Candidates(m, searchPath) {
			if _, err := os.Stat(name); err != nil {
				continue
			}
			b, err := c.Open(name)
			if err != nil || (m.BuildID != "" && b.BuildID != m.BuildID) {
				continue
			}
			m.File = name
			break
		}
	}
	if len(p.Mapping) == 0 {
		m := &profile.Mapping{ID: 1}
		p.Mapping = []*profile.Mapping{m}
		for _, l := range p.Location {
			l.Mapping = m
		}
	}
	if binary != "" {
		p.Mapping[0].File = binary
	}
}
