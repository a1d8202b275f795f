package report

import (
	"bufio"
	"bytes"
	"testing"
)

// FuzzSourceLines checks that sourceFile splits a file into the lines
// bufio.Scanner gives, which pprof reads source files with, up to a line
// too long for it.
func FuzzSourceLines(f *testing.F) {
	f.Add([]byte("package main\n\nfunc main() {\r\n}\n"), 1, 3)
	f.Add([]byte("no newline at the end"), 1, 1)
	f.Add([]byte("\n\n\n\r\n"), 2, 9)
	f.Add(append(bytes.Repeat([]byte("x\n"), 600), bytes.Repeat([]byte("y"), maxLine)...), 250, 700)
	f.Fuzz(func(t *testing.T, data []byte, first, last int) {
		want := []string{""}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			want = append(want, sc.Text())
		}
		f := newSourceFile(data)
		if f.n != len(want)-1 {
			t.Fatalf("%d lines; bufio.Scanner reads %d", f.n, len(want)-1)
		}
		next := max(first, 1)
		f.lines(first, last, func(n int, text string) {
			if n != next || text != want[n] {
				t.Fatalf("line %d = %q; want line %d, %q", n, text, next, want[next])
			}
			next++
		})
		if wantNext := max(min(last, f.n)+1, max(first, 1)); next != wantNext {
			t.Fatalf("lines(%d, %d) stopped before line %d; want %d", first, last, next, wantNext)
		}
	})
}
