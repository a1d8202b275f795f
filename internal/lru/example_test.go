package lru_test

import (
	"fmt"

	"github.com/perflab/perflab/internal/lru"
)

// Example keeps strings within 35 bytes: the fifth of 8 bytes pushes out
// the least recently used, and one over a quarter of the bound is not
// kept.
func Example() {
	c := lru.New(0, 35, func(s string) int64 { return int64(len(s)) })
	for _, k := range []string{"a", "b", "c", "d"} {
		c.Put(k, "01234567")
	}
	c.Get("a") // now the most recently used: b is the least
	c.Put("e", "01234567")
	c.Put("f", "012345678")
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		_, ok := c.Get(k)
		fmt.Print(k, ":", ok, " ")
	}
	n, bytes := c.Len()
	fmt.Println("|", n, bytes)
	// Output: a:true b:false c:true d:true e:true f:false | 4 32
}
