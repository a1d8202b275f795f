package other

import "testing"

func BenchmarkOther(b *testing.B) {
	x := 0
	for i := 0; i < b.N; i++ {
		x += i
	}
	_ = x
}
