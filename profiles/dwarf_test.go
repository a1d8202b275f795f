package profiles

import (
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
)

// TestSymbolizeCFromDWARF symbolizes addresses in a C program, which has
// no Go line table, from its DWARF, and checks the result against go tool
// pprof -raw on the same binary and profile.
func TestSymbolizeCFromDWARF(t *testing.T) {
	cc := testprog.Oracle(t, "gcc")
	dir := t.TempDir()
	src := filepath.Join(dir, "work.c")
	code := "int work(int n) {\n\tint s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += i * i;\n\treturn s;\n}\n\nint main(void) {\n\treturn work(1000) & 1;\n}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "work")
	if out, err := exec.Command(cc, "-g", "-O0", "-no-pie", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := ef.Symbols()
	ef.Close()
	if err != nil {
		t.Fatal(err)
	}
	addr := map[string]uint64{}
	for _, s := range syms {
		addr[s.Name] = s.Value
	}
	if addr["work"] == 0 || addr["main"] == 0 {
		t.Fatalf("no work or main symbol in %s", bin)
	}
	prof := filepath.Join(dir, "cpu.legacy")
	stacks := [][]uint64{{addr["work"] + 8, addr["main"] + 12}, {addr["main"] + 4}}
	if err := os.WriteFile(prof, legacyCPU(10000, []uint64{1, 1}, stacks), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(context.Background(), []string{bin, prof}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasFunction(p, "work") || !hasFunction(p, "main") {
		t.Errorf("work and main not symbolized: %v", p.Function)
	}
	if got, want := p.String(), pprofRaw(t, bin, prof); got != want {
		t.Errorf("loaded profile differs from go tool pprof -raw:\n--- got\n%s\n--- want\n%s", got, want)
	}
}
