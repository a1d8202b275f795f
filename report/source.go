package report

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/namedfile"
)

// MaxSourceBytes is the size above which list refuses to read a source
// file: 64 MiB, hundreds of times the largest Go source files, so that a
// profile naming a huge file costs little memory.
const MaxSourceBytes = 64 << 20

// A sourceReader finds, reads and caches source files.
type sourceReader struct {
	search, trim string
	files        map[string]*sourceFile
	errs         map[string]error
}

func newSourceReader(search, trim string) *sourceReader {
	return &sourceReader{search: search, trim: trim, files: map[string]*sourceFile{}, errs: map[string]error{}}
}

// file returns the source file a profile names path, read once.
func (s *sourceReader) file(path string) (*sourceFile, error) {
	if f, ok := s.files[path]; ok {
		return f, s.errs[path]
	}
	f := &sourceFile{}
	data, err := readSource(path, s.search, s.trim)
	if err == nil {
		f = newSourceFile(data)
	}
	s.files[path], s.errs[path] = f, err
	return f, err
}

// readSource reads a profile's source file name: absolute names as they
// are (after -trim_path), relative ones under each -source_path entry and
// its parents, as pprof finds them. A profile chose the name, so the file
// is opened as package namedfile opens every such file: never under
// /proc, /sys or /dev, without blocking, a regular file of at most
// MaxSourceBytes whose length read is its size.
func readSource(path, search, trim string) ([]byte, error) {
	f, info, err := openSource(path, search, trim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return namedfile.ReadAll(f, info, MaxSourceBytes, "a source file")
}

// openSource opens a source file as pprof does: the first candidate that
// exists is the one.
func openSource(path, search, trim string) (*os.File, fs.FileInfo, error) {
	path = trimPath(path, trim, search)
	if filepath.IsAbs(path) {
		return namedfile.Open(path)
	}
	for _, dir := range filepath.SplitList(search) {
		for {
			f, info, err := namedfile.Open(filepath.Join(dir, path))
			if err == nil || !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
				return f, info, err
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return nil, nil, fmt.Errorf("could not find file %s on path %s", path, search)
}

// A sourceFile holds a file's bytes and where every linesPerMark-th line
// starts: as little memory as the file itself, even for millions of
// short lines, and any line found by scanning at most linesPerMark lines.
type sourceFile struct {
	data  []byte
	marks []int // marks[k] is where line k*linesPerMark+1 starts
	n     int   // the number of lines
}

const linesPerMark = 256

// maxLine is the length at which bufio.Scanner, which pprof reads source
// files with, gives up on a line; pprof then shows the lines before it.
const maxLine = 64 << 10

// newSourceFile splits data into lines as bufio.ScanLines does.
func newSourceFile(data []byte) *sourceFile {
	f := &sourceFile{}
	for off := 0; off < len(data); f.n++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		if end >= maxLine {
			break
		}
		if f.n%linesPerMark == 0 {
			f.marks = append(f.marks, off)
		}
		off += end + 1
	}
	f.data = data
	return f
}

// lines calls fn with each line from first to last, 1-based, that the
// file has, without its line ending.
func (f *sourceFile) lines(first, last int, fn func(n int, text string)) {
	first, last = max(first, 1), min(last, f.n)
	if first > last {
		return
	}
	k := (first - 1) / linesPerMark
	off := f.marks[k]
	for n := k*linesPerMark + 1; n <= last; n++ {
		end := bytes.IndexByte(f.data[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(f.data)-off, len(f.data)
		}
		if n >= first {
			fn(n, string(bytes.TrimSuffix(f.data[off:off+end], []byte("\r"))))
		}
		off = next
	}
}
