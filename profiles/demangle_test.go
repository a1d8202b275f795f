package profiles

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
)

// TestDemangleMatchesPprof loads a profile holding reporttest.DemangleCases
// with Load and with go tool pprof (-proto writes the profile as pprof
// displays it) and wants every function to get pprof's name.
func TestDemangleMatchesPprof(t *testing.T) {
	dir := t.TempDir()
	path := reporttest.WriteNamesProfile(t, dir, reporttest.DemangleCases)
	out := filepath.Join(dir, "pprof.pb.gz")
	if _, stderr, err := reporttest.RunPprof(t, dir, nil, "-proto", "-output="+out, path); err != nil {
		t.Fatalf("pprof -proto: %v\n%s", err, stderr)
	}
	want := namesByFile(t, reporttest.ReadProfile(t, out))
	p, err := Load(context.Background(), []string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := namesByFile(t, p)
	changed := 0
	for i, c := range reporttest.DemangleCases {
		file := fmt.Sprintf("/src/f%d.go", i)
		if got[file] != want[file] {
			t.Errorf("Name %q SystemName %q: perflab shows %q, pprof %q", c.Name, c.SystemName, got[file], want[file])
		}
		if want[file] != c.Name {
			changed++
		}
		t.Logf("%-45q %-45q -> %q", c.Name, c.SystemName, want[file])
	}
	if changed == 0 {
		t.Fatal("pprof changed no name: the cases test nothing")
	}
}

// TestDisplayName checks names whose display pprof's source fixes, also
// where pprof is not installed.
func TestDisplayName(t *testing.T) {
	for _, c := range []struct{ sys, want string }{
		{"main.x'<img src=x>", "main.x'"},
		{"_ZN3foo3barEv", "foo::bar"},
		{"__ZN3foo3barEv", "foo::bar"},
		{"std::vector<std::pair<int, long>>::push_back(int (*)(int))", "std::vector::push_back"},
		{"main.(*T).M", "main.(*T).M"},
		{"main.Map[go.shape.int]", "main.Map[go.shape.int]"},
		{"main.(*List[go.shape.int]).Push", "main.(*List[go.shape.int]).Push"},
		{"main.G[go.shape.func(int)]", "main.G[go.shape.func]"},
		{"java.lang.Object.<init>", "java.lang.Object.<init>"},
		{"a::b(c)d)e(f)", "a::bd)e(f)"},
		{"a::b(c(d)e", "a::b(c(d)e"},
	} {
		if got := displayName(c.sys); got != c.want {
			t.Errorf("displayName(%q) = %q, want %q", c.sys, got, c.want)
		}
	}
}

// namesByFile maps each function's file to its name: the names profile
// has one function per file.
func namesByFile(t *testing.T, p *profile.Profile) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range p.Function {
		if _, dup := m[f.Filename]; dup {
			t.Fatalf("two functions in %s", f.Filename)
		}
		m[f.Filename] = f.Name
	}
	return m
}

// FuzzDisplayName feeds names to the demangler and the C++ heuristics: no
// panic; a name that does not look mangled loses bytes only, and only if
// it looks like demangled C++; cutting groups leaves a balanced name with
// no bracket and is idempotent.
func FuzzDisplayName(f *testing.F) {
	for _, c := range reporttest.DemangleCases {
		f.Add(c.SystemName)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := displayName(name)
		if !strings.HasPrefix(name, "_") {
			if !isSubsequence(got, name) || (got != name && !looksLikeDemangledCPlusPlus(name)) {
				t.Fatalf("displayName(%q) = %q", name, got)
			}
		}
		cut := cutGroups(name, '(', ')')
		if again := cutGroups(cut, '(', ')'); again != cut || !isSubsequence(cut, name) {
			t.Fatalf("cutGroups(%q) = %q, then %q", name, cut, again)
		}
		if balanced(name) && strings.ContainsAny(cut, "()") {
			t.Fatalf("cutGroups(%q) = %q keeps brackets", name, cut)
		}
	})
}

// isSubsequence reports whether s is t with some bytes removed.
func isSubsequence(s, t string) bool {
	for i := 0; i < len(t) && len(s) > 0; i++ {
		if t[i] == s[0] {
			s = s[1:]
		}
	}
	return s == ""
}

// balanced reports whether every ')' of s closes an earlier '(' and every
// '(' is closed.
func balanced(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
