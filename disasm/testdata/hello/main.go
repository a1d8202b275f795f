// Command hello is the small program the disasm examples and tests build.
package main

import "fmt"

//go:noinline
func square(x int) int { return x * x }

func double(x int) int { return x + x } // inlined into main

func main() { fmt.Println(double(square(3))) }
