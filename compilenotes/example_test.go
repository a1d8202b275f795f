package compilenotes_test

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/compilenotes"
)

// ParseJSON reads one file the compiler writes with -json=0,DIR.
func ExampleParseJSON() {
	const diagnostics = `{"version":0,"package":"example.com/p","goos":"linux","goarch":"amd64","gc_version":"go1.26.8","file":"/src/p/p.go"}
{"range":{"start":{"line":12,"character":20},"end":{"line":12,"character":20}},"severity":3,"code":"escape","source":"go compiler","message":"string(char) + s escapes to heap","relatedInformation":[{"location":{"uri":"file:///src/p/p.go","range":{"start":{"line":12,"character":20},"end":{"line":12,"character":20}}},"message":"escflow:    flow: s ← \u0026{storage for string(char) + s}:"}]}
{"range":{"start":{"line":10,"character":6},"end":{"line":10,"character":6}},"severity":3,"code":"cannotInlineFunction","source":"go compiler","message":"function too complex: cost 100 exceeds budget 80"}
`
	h, notes, err := compilenotes.ParseJSON(strings.NewReader(diagnostics))
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Package)
	for _, n := range notes {
		fmt.Printf("%d:%d %s: %s %q (%s)\n", n.Line, n.Col, n.Kind, n.Message, n.Flow, compilenotes.Classify(n))
	}
	// Output:
	// example.com/p
	// 12:20 escape: string(char) + s escapes to heap ["flow: s ← &{storage for string(char) + s}:"] (conversion)
	// 10:6 cannot inline: cannot inline: function too complex: cost 100 exceeds budget 80 [] ()
}
