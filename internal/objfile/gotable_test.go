package objfile

import (
	"encoding/binary"
	"strings"
	"testing"
)

// TestGoTableRefusesHugeCount gives GoTable Go 1.20 line table headers
// claiming 2^40 functions in 64 bytes, in both byte orders and pointer
// sizes: each is refused with an error (gosym alone tried to allocate
// them, found by disasm's FuzzRead); a count the table can hold is not.
func TestGoTableRefusesHugeCount(t *testing.T) {
	for _, ord := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for _, ptr := range []byte{4, 8} {
			for _, n := range []uint64{1 << 40, 2} {
				data := make([]byte, 64)
				ord.PutUint32(data, 0xfffffff1)
				data[6], data[7] = 1, ptr
				if ptr == 4 {
					n = min(n, 1<<32-1)
					ord.PutUint32(data[8:], uint32(n))
				} else {
					ord.PutUint64(data[8:], n)
				}
				_, err := GoTable(data, 0)
				refused := err != nil && strings.Contains(err.Error(), "more functions than it holds")
				if refused != (n > 2) {
					t.Errorf("%v, pointer %d, %d functions in 64 bytes: %v", ord, ptr, n, err)
				}
			}
		}
	}
}
