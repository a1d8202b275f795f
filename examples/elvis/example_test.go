package elvis_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/perflab/perflab/examples/elvis"
)

func ExampleReplaceScan() {
	var out bytes.Buffer
	elvis.ReplaceScan([]byte("elvielviselvis"), elvis.Find, elvis.Repl, &out)
	fmt.Println(out.String())
	// Output: elviElvisElvis
}

func ExampleReplaceReader() {
	in := strings.NewReader("aabeeeelvis\n")
	if err := elvis.ReplaceReader(in, os.Stdout, elvis.Find, elvis.Repl); err != nil {
		fmt.Println(err)
	}
	// Output: aabeeeElvis
}
