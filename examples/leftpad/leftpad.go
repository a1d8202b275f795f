package leftpad

import (
	"fmt"
	"unicode/utf8"
)

// A Version selects the naive or the tuned implementation.
type Version int

// The versions, as the article tags them.
const (
	V1 Version = 1 + iota // naive
	V2                    // tuned
)

// String returns "v1" or "v2".
func (v Version) String() string { return fmt.Sprintf("v%d", int(v)) }

// ParseVersion returns the version named s: "v1" or "v2".
func ParseVersion(s string) (Version, error) {
	switch s {
	case "v1":
		return V1, nil
	case "v2":
		return V2, nil
	}
	return 0, fmt.Errorf("unknown version %q (want v1 or v2)", s)
}

// MaxLen is the longest padded string the service makes, so that one
// request cannot ask for unbounded memory.
const MaxLen = 4096

// leftpadV1 pads s on the left with char up to length runes' worth of
// bytes, as the article's first version does: one new string per
// character added.
func leftpadV1(s string, length int, char rune) string {
	for len(s) < length {
		s = string(char) + s
	}
	return s
}

// leftpadV2 appends the same result as leftpadV1 to dst, writing the
// padding in one go.
func leftpadV2(dst []byte, s string, length int, char rune) []byte {
	if n := length - len(s); n > 0 {
		w := utf8.RuneLen(char)
		if w < 0 {
			char, w = utf8.RuneError, 3
		}
		// leftpadV1 adds whole characters until the length is reached or passed.
		for range (n + w - 1) / w {
			dst = utf8.AppendRune(dst, char)
		}
	}
	return append(dst, s...)
}

// Leftpad returns s padded on the left with char until it is at least
// length bytes long, the service's answer. Padding characters are added
// whole, so with a multi-byte char the result may pass length.
func Leftpad(s string, length int, char rune) string {
	if len(s) >= length {
		return s
	}
	return string(leftpadV2(make([]byte, 0, length+utf8.UTFMax), s, length, char))
}
