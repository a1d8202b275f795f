package profiles

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
)

// KeepDirEnv names the environment variable that says where go tool
// pprof, and perflab, keep the profiles they fetch.
const KeepDirEnv = "PPROF_TMPDIR"

// KeepDir returns the directory where go tool pprof keeps the profiles
// it fetches, creating it: $PPROF_TMPDIR, else $HOME/pprof (%USERPROFILE%
// on Windows), else the system's temporary directory. As in pprof, a
// directory that cannot be created is passed over for the next.
func KeepDir() (string, error) {
	var dirs []string
	if d := os.Getenv(KeepDirEnv); d != "" {
		dirs = append(dirs, d)
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "pprof"))
	}
	dirs = append(dirs, os.TempDir())
	var errs []error
	for _, d := range dirs {
		err := os.MkdirAll(d, 0o755)
		if err == nil {
			return d, nil
		}
		errs = append(errs, err)
	}
	return "", fmt.Errorf("no directory to keep profiles in: %w", errors.Join(errs...))
}

// Keep writes p, gzipped, to a new file in dir and returns its path. The
// file is named as go tool pprof names the profiles it keeps,
// pprof.BINARY.TYPE1.TYPE2.NNN.pb.gz: the base name of the first
// mapping's file (if any), each sample type, and the first number from
// 001 up that makes a new file. Characters of the names other than
// letters, digits, '.', '-' and '_' become '_', and each name is cut at
// 64 bytes, so that a profile cannot name a file elsewhere (pprof takes
// them as they are).
func Keep(dir string, p *profile.Profile) (string, error) {
	prefix := "pprof."
	if len(p.Mapping) > 0 && p.Mapping[0].File != "" {
		prefix += fileNamePart(filepath.Base(p.Mapping[0].File)) + "."
	}
	for _, st := range p.SampleType {
		prefix += fileNamePart(st.Type) + "."
	}
	for i := 1; i < 10000; i++ {
		name := filepath.Join(dir, fmt.Sprintf("%s%03d.pb.gz", prefix, i))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		err = p.Write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", fmt.Errorf("writing %s: %w", name, err)
		}
		return name, nil
	}
	return "", fmt.Errorf("no free name of the form %s001.pb.gz in %s", prefix, dir)
}

// fileNamePart makes s safe as part of a file name: see Keep.
func fileNamePart(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
	if len(s) > 64 {
		s = s[:64]
	}
	return s
}
