package main

import (
	"context"
	"io"
	"testing"
)

func BenchmarkTmpBig(b *testing.B) {
	args := []string{"disasm", `runtime\.|report\.|disasm\.|x86asm\.|main\.`, "/tmp/bd/perflab.test", "/tmp/bd/cpu.pprof"}
	for b.Loop() {
		if err := run(context.Background(), nil, io.Discard, io.Discard, args); err != nil {
			b.Fatal(err)
		}
	}
}
