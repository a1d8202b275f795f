package term

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"main.main\tfile.go:12\n", "main.main\tfile.go:12\n"},
		{"\x1b]0;pwned\x07evil\rfake", `\x1b]0;pwned\x07evil\rfake`},
		{"\x1b]52;c;cHduZWQ=\x07", `\x1b]52;c;cHduZWQ=\x07`}, // clipboard write
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},                   // clear screen
		{"a\x00b\x7fc", `a\x00b\x7fc`},
		{"\u009b2J csi", `\u009b2J csi`}, // C1 CSI as a rune
		{"\x9b2J", `\x9b2J`},             // C1 CSI as a raw byte: not UTF-8
		{"\xff\xfe", `\xff\xfe`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"héllo, 世界 🙂 C:\\dir", "héllo, 世界 🙂 C:\\dir"},
		{"cut \xe4\xb8", `cut \xe4\xb8`},
	} {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var b bytes.Buffer
		s := Sanitize(&b)
		if n, err := s.Write([]byte(tt.in)); n != len(tt.in) || err != nil {
			t.Errorf("Write(%q) = %d, %v", tt.in, n, err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("Sanitize wrote %q for %q, want %q", b.String(), tt.in, tt.want)
		}
	}
}

// TestSanitizeSplitRune checks that a character cut across two Writes
// comes through whole, byte by byte too.
func TestSanitizeSplitRune(t *testing.T) {
	in := "名前 \u202e 🙂\x1b"
	var b bytes.Buffer
	s := Sanitize(&b)
	for i := 0; i < len(in); i++ {
		s.Write([]byte{in[i]})
	}
	s.Flush()
	if want := Escape(in); b.String() != want {
		t.Errorf("byte by byte: %q, want %q", b.String(), want)
	}
}

// FuzzSanitize checks, for any input written in two pieces, that the
// output is valid UTF-8 holding no control character but '\n' and '\t'
// and no bidi override, that it equals Escape of the whole input, and
// that input needing no escapes passes unchanged.
func FuzzSanitize(f *testing.F) {
	f.Add([]byte("\x1b]0;pwned\x07evil\rfake"), 3)
	f.Add([]byte("main.main\t\u202e世界\n"), 5)
	f.Add([]byte("\xe4\xb8\x96\xff\u009b"), 1)
	f.Fuzz(func(t *testing.T, in []byte, cut int) {
		if cut < 0 || cut > len(in) {
			cut = len(in)
		}
		var b bytes.Buffer
		s := Sanitize(&b)
		s.Write(in[:cut])
		s.Write(in[cut:])
		s.Flush()
		out := b.String()
		if !utf8.ValidString(out) {
			t.Fatalf("output %q is not UTF-8", out)
		}
		for _, r := range out {
			if (r < ' ' && r != '\n' && r != '\t') || (0x7f <= r && r <= 0x9f) ||
				(0x202a <= r && r <= 0x202e) || (0x2066 <= r && r <= 0x2069) {
				t.Fatalf("output %q holds %U", out, r)
			}
		}
		if want := Escape(string(in)); out != want {
			t.Fatalf("written in pieces at %d: %q; Escape: %q", cut, out, want)
		}
		if !strings.Contains(out, `\`) && out != string(in) {
			t.Fatalf("input without controls %q changed to %q", in, out)
		}
	})
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                    "plain",
		"a\nb":                     "a ; b",
		"  spaced\t out \r\n next": "spaced out ; next",
		"":                         "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q; want %q", in, got, want)
		}
	}
}
