package disasm_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/perflab/perflab/disasm"
)

// Disassemble a function of a freshly built program, with the inlined
// call chain of its instructions.
func Example() {
	dir, err := os.MkdirTemp("", "disasm-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "hello")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/hello").CombinedOutput(); err != nil {
		panic(fmt.Sprint(err, string(out)))
	}
	b, err := disasm.Open(bin)
	if err != nil {
		panic(err)
	}
	fmt.Println(b.GOARCH == runtime.GOARCH)
	for _, s := range b.Symbols(func(name string) bool { return name == "main.main" || name == "main.square" }) {
		lines := map[int]bool{}
		inlined := false
		b.Decode(s.Addr, s.Addr+s.Size, func(in disasm.Inst) {
			lines[in.Line] = true
			if chain, err := b.Inlined(s.Addr, in.Addr); err == nil && len(chain) > 1 && chain[0].Func == "main.double" {
				inlined = true
			}
		})
		fmt.Println(s.Name, lines[7] || lines[11], inlined)
	}
	// Output:
	// true
	// main.square true false
	// main.main true true
}
