package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
)

// rewriteProfile loads the profile at path, lets edit change it and writes
// it to a new file.
func rewriteProfile(t *testing.T, path string, edit func(*profile.Profile)) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	edit(p)
	out := filepath.Join(t.TempDir(), "edited.pprof")
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDisasmBadBinary feeds binaries that cannot serve the profile: each
// must fail with one line naming the binary and the cause, after the
// listing without assembly (perflab list's output).
func TestDisasmBadBinary(t *testing.T) {
	p := buildProfiled(t, "hash")
	other := testprog.BuildSource(t, disasmProgs["sortmap"])
	noBuildID := rewriteProfile(t, p.cpu, func(p *profile.Profile) { p.Mapping[0].BuildID = "" })
	missing := filepath.Join(t.TempDir(), "gone")
	moved := rewriteProfile(t, p.cpu, func(p *profile.Profile) { p.Mapping[0].File = missing })
	stripped := crossBuild(t, "linux", "amd64", disasmProgs["hash"], "-s", "-w")
	riscv := crossBuild(t, "linux", "riscv64", disasmProgs["hash"])
	cases := []struct {
		name, bin, prof, want string
	}{
		{"build ID", other, p.cpu, "does not match the profile's"},
		{"addresses", other, noBuildID, "does not match the profile: address"},
		{"stripped", stripped, noBuildID, "no symbol table"},
		{"non-Go", "/bin/true", noBuildID, "not a Go binary"},
		{"architecture", riscv, noBuildID, `unsupported architecture "riscv64"`},
		{"missing", "", moved, "no such file or directory"},
	}
	if cbin := buildC(t); cbin != "" {
		cases = append(cases, struct{ name, bin, prof, want string }{"C program", cbin, noBuildID, "not a Go binary"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(c.bin); c.bin != "" && err != nil {
				t.Skip(err)
			}
			args := []string{"disasm", `main\.`}
			if c.bin != "" {
				args = append(args, c.bin)
			}
			var out, errw bytes.Buffer
			err := run(context.Background(), strings.NewReader(""), &out, &errw, append(args, c.prof))
			named := c.bin
			if named == "" {
				named = missing
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "binary "+named+": ") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v; want one line naming %s and %q", err, named, c.want)
			}
			// What is printed is the listing without assembly, if any.
			var list, lerr bytes.Buffer
			if run(context.Background(), strings.NewReader(""), &list, &lerr, []string{"list", `main\.`, c.prof}) != nil {
				list.Reset()
			}
			if !bytes.Equal(out.Bytes(), list.Bytes()) {
				t.Errorf("stdout is not perflab list's output: %s", reporttest.FirstDiff(out.Bytes(), list.Bytes()))
			}
			if (list.Len() > 0) != strings.Contains(err.Error(), "listing above has no assembly") {
				t.Errorf("err = %v with %d bytes of listing", err, list.Len())
			}
		})
	}
}

// buildC compiles a small C program, or returns "" without a C compiler.
func buildC(t *testing.T) string {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		return ""
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "main.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "cprog")
	if out, err := exec.Command(cc, "-o", bin, src).CombinedOutput(); err != nil {
		t.Logf("gcc: %v\n%s", err, out)
		return ""
	}
	return bin
}
