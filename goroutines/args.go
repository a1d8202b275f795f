package goroutines

import (
	"fmt"
	"strconv"
	"strings"
)

// A Param is one parameter of a function: its name and Go type.
type Param struct {
	Name, Type string
}

// An Arg is a parameter decoded from a frame's argument words.
type Arg struct {
	Param
	// Text describes the value: "ptr=0xc00003a710 len=2 cap=4",
	// "ptr=0x47365d len=5", "10 (0xa)", "true". A word the runtime marked
	// with "?" (possibly inaccurate: the register it was spilled from may
	// have been reused) keeps its mark.
	Text string
}

// An argument item as printed: a word (Word and its ? mark) or an
// aggregate {...} of items. More says the runtime cut the list ("...").
type argItem struct {
	Word    string
	Unsure  bool
	Agg     []argItem
	IsAgg   bool
	More    bool
	Present bool
}

// parseArgs splits "0x1, {0x2?, 0x3}, ..." into items.
func parseArgs(s string) []argItem {
	items, _ := parseArgList(s, 0)
	return items
}

func parseArgList(s string, i int) ([]argItem, int) {
	var items []argItem
	for i < len(s) {
		switch s[i] {
		case ' ', ',':
			i++
		case '}':
			return items, i + 1
		case '{':
			sub, j := parseArgList(s, i+1)
			items = append(items, argItem{Agg: sub, IsAgg: true, Present: true})
			i = j
		default:
			j := i
			for j < len(s) && s[j] != ',' && s[j] != '}' {
				j++
			}
			w := strings.TrimSpace(s[i:j])
			if w == "..." {
				items = append(items, argItem{More: true})
			} else {
				items = append(items, argItem{Word: strings.TrimSuffix(w, "?"), Unsure: strings.HasSuffix(w, "?"), Present: true})
			}
			i = j
		}
	}
	return items, i
}

// DecodeArgs decodes the raw argument text of a frame (Frame.Args) given
// the function's parameters. Go 1.17 and later print one item per
// parameter: a word for a scalar, {...} for a string (pointer, length), a
// slice (pointer, length, capacity), an interface (type, data), a struct or
// an array. Older versions printed raw stack words into which small
// parameters are packed, in order and aligned, little-endian, as the
// Ultimate Go article reads them; DecodeArgs unpacks those when the text
// has no braces and fits that layout.
func DecodeArgs(args string, params []Param) []Arg {
	items := parseArgs(args)
	packed := !strings.Contains(args, "{") && len(items) != len(params)
	if packed {
		return decodePacked(items, params)
	}
	out := make([]Arg, 0, len(params))
	for i, p := range params {
		a := Arg{Param: p}
		switch {
		case i >= len(items) || items[i].More:
			a.Text = "(not printed)"
		default:
			a.Text = describe(p.Type, items[i])
		}
		out = append(out, a)
	}
	return out
}

// describe explains one item as a value of type typ.
func describe(typ string, it argItem) string {
	if !it.IsAgg {
		return scalar(typ, it.Word, it.Unsure, 8)
	}
	names := componentNames(typ)
	var parts []string
	for j, sub := range it.Agg {
		if sub.More {
			parts = append(parts, "...")
			continue
		}
		w := sub.Word + mark(sub.Unsure)
		if sub.IsAgg {
			w = "{...}"
		}
		if j < len(names) {
			w = names[j] + "=" + w
			if names[j] == "len" || names[j] == "cap" {
				w = names[j] + "=" + scalar("int", sub.Word, sub.Unsure, 8)
			}
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// componentNames names the words of a multi-word type.
func componentNames(typ string) []string {
	switch {
	case typ == "string":
		return []string{"ptr", "len"}
	case strings.HasPrefix(typ, "[]"), strings.HasPrefix(typ, "..."):
		return []string{"ptr", "len", "cap"}
	case typ == "error" || typ == "any" || strings.HasPrefix(typ, "interface"):
		return []string{"type", "data"}
	}
	return nil
}

func mark(unsure bool) string {
	if unsure {
		return "?"
	}
	return ""
}

// scalar formats a word as a value of typ, keeping only its low size bytes.
func scalar(typ, word string, unsure bool, size int) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(word, "0x"), 16, 64)
	if err != nil {
		return word + mark(unsure)
	}
	if size < 8 {
		v &= 1<<(8*size) - 1
	}
	m := mark(unsure)
	switch typ {
	case "bool":
		return fmt.Sprintf("%t%s", v != 0, m)
	case "int", "int64", "int32", "int16", "int8", "rune":
		return fmt.Sprintf("%d%s (%#x)", signExtend(v, scalarSize(typ)), m, v)
	case "uint", "uint64", "uint32", "uint16", "uint8", "byte", "uintptr":
		return fmt.Sprintf("%d%s (%#x)", v, m, v)
	}
	return fmt.Sprintf("%#x%s", v, m)
}

func signExtend(v uint64, size int) int64 {
	shift := 64 - 8*size
	return int64(v<<shift) >> shift
}

// scalarSize is the size in bytes of a Go type in memory (amd64, arm64):
// 0 for a type whose size is not known from its name alone.
func scalarSize(typ string) int {
	switch typ {
	case "bool", "int8", "uint8", "byte":
		return 1
	case "int16", "uint16":
		return 2
	case "int32", "uint32", "rune", "float32":
		return 4
	case "string", "error", "any", "complex128":
		return 16
	}
	switch {
	case strings.HasPrefix(typ, "[]"), strings.HasPrefix(typ, "..."):
		return 24
	case strings.HasPrefix(typ, "interface"):
		return 16
	case strings.HasPrefix(typ, "["), strings.HasPrefix(typ, "struct"):
		return 0
	}
	return 8 // int, uint, pointers, maps, channels, funcs, named types (a guess)
}

// decodePacked reads pre-1.17 stack words: each parameter at the next
// offset aligned to its size, little-endian within a word.
func decodePacked(items []argItem, params []Param) []Arg {
	out := make([]Arg, 0, len(params))
	off := 0
	for _, p := range params {
		size := scalarSize(p.Type)
		if size == 0 {
			size = 8
		}
		align := min(size, 8)
		off = (off + align - 1) / align * align
		w, byteOff := off/8, off%8
		a := Arg{Param: p}
		if w >= len(items) || items[w].More {
			a.Text = "(not printed)"
		} else if names := componentNames(p.Type); names != nil {
			var parts []string
			for j, n := range names {
				if w+j < len(items) && !items[w+j].More {
					parts = append(parts, n+"="+items[w+j].Word+mark(items[w+j].Unsure))
				}
			}
			a.Text = strings.Join(parts, " ")
		} else {
			it := items[w]
			v, _ := strconv.ParseUint(strings.TrimPrefix(it.Word, "0x"), 16, 64)
			word := fmt.Sprintf("%#x", v>>(8*byteOff))
			a.Text = scalar(p.Type, word, it.Unsure, size)
			if size < 8 {
				a.Text += fmt.Sprintf(" [byte %d of word %s]", byteOff, it.Word)
			}
		}
		out = append(out, a)
		off += size
	}
	return out
}
