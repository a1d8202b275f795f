package compilenotes

import (
	"bytes"
	"testing"
)

// FuzzParseJSON holds ParseJSON to its contract on any input: no panic,
// notes only from a valid header, positions positive, each escape's flow
// taken from its own record.
func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"version":0,"package":"p","goos":"linux","goarch":"amd64","gc_version":"go1.26.8","file":"/src/p/a.go"}
{"range":{"start":{"line":19,"character":2},"end":{"line":19,"character":2}},"severity":3,"code":"escape","source":"go compiler","message":"p escapes to heap","relatedInformation":[{"location":{"uri":"file:///src/p/a.go","range":{"start":{"line":20,"character":9},"end":{"line":20,"character":9}}},"message":"escflow:    flow: ~r0 ← \u0026p:"}]}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, notes, err := ParseJSON(bytes.NewReader(data))
		if err == nil && h.File == "" {
			t.Fatalf("no error and no file in the header")
		}
		for _, n := range notes {
			if n.Line <= 0 || n.File != h.File {
				t.Fatalf("note %+v: bad position for header file %q", n, h.File)
			}
			if n.Kind != Escape && len(n.Flow) > 0 {
				t.Fatalf("note %+v: flow on a %v note", n, n.Kind)
			}
		}
	})
}

func TestParseJSONRejects(t *testing.T) {
	for _, in := range []string{"", "not json\n", `{"version":1,"file":"a.go"}` + "\n", `{"version":0}` + "\n",
		`{"version":0,"file":"a.go"}` + "\n{bad\n"} {
		if _, _, err := ParseJSON(bytes.NewReader([]byte(in))); err == nil {
			t.Errorf("ParseJSON(%q): no error", in)
		}
	}
}

func TestParseTextLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		want Note
	}{
		{"./main.go:19:2: moved to heap: p", true, Note{File: "/d/main.go", Line: 19, Col: 2, Kind: MovedToHeap, Message: "moved to heap: p"}},
		{"/abs/x.go:7:13: inlining call to fmt.Println", true, Note{File: "/abs/x.go", Line: 7, Col: 13, Kind: Inlined, Message: "inlining call to fmt.Println"}},
		{"./a.go:3:11: make([]byte, n) does not escape", true, Note{File: "/d/a.go", Line: 3, Col: 11, Kind: NoEscape, Message: "make([]byte, n) does not escape"}},
		{"./a.go:3:11: make([]byte, 64) does not escape", false, Note{}},
		{"./a.go:3:11: x escapes to heap", false, Note{}},
		{"# example.com/p", false, Note{}},
		{"a.go:x:1: moved to heap: p", false, Note{}},
	} {
		n, ok := parseTextLine(tc.line, "/d")
		if ok != tc.ok || (ok && (n.File != tc.want.File || n.Line != tc.want.Line || n.Col != tc.want.Col || n.Kind != tc.want.Kind || n.Message != tc.want.Message)) {
			t.Errorf("parseTextLine(%q) = %+v, %v; want %+v, %v", tc.line, n, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseText holds ParseText to its contract: no panic, and only the
// kinds it keeps, at positive lines.
func FuzzParseText(f *testing.F) {
	f.Add([]byte("# example.com/p\n./main.go:19:2: moved to heap: p\n./main.go:69:30: inlining call to strconv.Itoa\n./a.go:3:11: make([]byte, n) does not escape\nC:\\src\\a.go:1:2: moved to heap: q\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		notes, _ := ParseText(bytes.NewReader(data), "/d")
		for _, n := range notes {
			if n.Line <= 0 || (n.Kind != MovedToHeap && n.Kind != Inlined && n.Kind != NoEscape) {
				t.Fatalf("note %+v", n)
			}
		}
	})
}
