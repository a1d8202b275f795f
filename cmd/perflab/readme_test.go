package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// demoFiles are the files "perflab demo" writes (internal/demo's
// ProfileDir, ./perflab-demo by default).
var demoFiles = []string{"perflab-demo/naive.cpu.pprof", "perflab-demo/naive.allocs.pprof", "perflab-demo/tuned.cpu.pprof"}

// TestQuickStartInputs reads the README's Quick start as a script: every
// file a line reads (a profile, a dump, a trace, a program) must be in
// the repository or made by a line before it (perflab demo, -o, >,
// -trace=, go build -o), and every perflab command must exist. The lines
// themselves were run by hand; this keeps them runnable as they change.
func TestQuickStartInputs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, qs, _ := strings.Cut(string(readme), "## Quick start\n")
	qs, _, _ = strings.Cut(qs, "\n## ")
	made := map[string]bool{}
	for _, line := range quickStartLines(qs) {
		words := shellWords(t, line)
		if words[0] == "perflab" && len(words) > 1 && !strings.HasPrefix(words[1], "-") && lookup(words[1]) == nil {
			t.Errorf("%s: no command %q", line, words[1])
		}
		for i, w := range words {
			prev := ""
			if i > 0 {
				prev = words[i-1]
			}
			switch {
			case prev == "-o" || prev == ">":
				made[filepath.Clean(w)] = true
			case strings.HasPrefix(w, "-trace="):
				made[filepath.Clean(strings.TrimPrefix(w, "-trace="))] = true
			case isInputFile(w) && !made[filepath.Clean(w)]:
				if _, err := os.Stat(filepath.Join("../..", w)); err != nil {
					t.Errorf("%s: %s comes from no line before it and is not in the repository", line, w)
				}
			}
		}
		if line == "perflab demo" {
			for _, f := range demoFiles {
				made[f] = true
			}
		}
	}
}

// quickStartLines returns the command lines of an indented block, without
// their comments, continuations joined.
func quickStartLines(text string) []string {
	var lines []string
	cont := ""
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "    ") {
			continue
		}
		l = cont + strings.TrimSpace(l)
		cont = ""
		if before, ok := strings.CutSuffix(l, `\`); ok {
			cont = before
			continue
		}
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "&")); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// isInputFile reports whether a word of a command line names a file the
// command reads: a program ("./leftpad"), a profile, a dump or a trace.
func isInputFile(w string) bool {
	if strings.Contains(w, "://") || strings.HasPrefix(w, "-") {
		return false
	}
	for _, ext := range []string{".pprof", ".pb.gz", ".txt", ".out"} {
		if strings.HasSuffix(w, ext) {
			return true
		}
	}
	return strings.HasPrefix(w, "./")
}
