package leftpad

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestLeftpad(t *testing.T) {
	tests := []struct {
		s      string
		length int
		char   rune
		want   string
	}{
		{"test", 10, '*', "******test"},
		{"test", 4, '*', "test"},
		{"test", 2, '*', "test"},
		{"", 3, ' ', "   "},
		{"ab", 6, 'é', "ééab"},  // é is 2 bytes: padded by whole characters
		{"ab", 5, 'é', "ééab"},  // ... which may pass the length
		{"x", 4, -1, "\uFFFDx"}, // an invalid rune pads as U+FFFD, as string(rune) does
	}
	for _, tt := range tests {
		v1 := leftpadV1(tt.s, tt.length, tt.char)
		v2 := string(leftpadV2(nil, tt.s, tt.length, tt.char))
		pub := Leftpad(tt.s, tt.length, tt.char)
		if v1 != tt.want || v2 != tt.want || pub != tt.want {
			t.Errorf("leftpad(%q, %d, %q): v1 %q, v2 %q, Leftpad %q; want %q", tt.s, tt.length, tt.char, v1, v2, pub, tt.want)
		}
	}
}

// packetWriter records each Write as one packet.
type packetWriter struct{ packets []string }

func (w *packetWriter) Write(b []byte) (int, error) {
	w.packets = append(w.packets, string(b))
	return len(b), nil
}

func TestStatsDPackets(t *testing.T) {
	tests := []struct {
		ns, stat, kind string
		delta, rate    float64
		want           string
	}{
		{"leftpad", "requests", "c", 1, 0, "leftpad.requests:1|c"},
		{"leftpad", "duration", "ms", 0.25, 1, "leftpad.duration:0.25|ms"},
		{"ns", "a:b|c@d", "c", 3, 0.5, "ns.a_b_c_d:3|c|@0.5"},
		{"ns", "big", "g", 1234567890, 0.01, "ns.big:1234567890|g|@0.01"},
		{"ns", "neg", "c", 1, -0.5, "ns.neg:1|c"}, // a rate outside (0, 1) is not sent
	}
	for _, tt := range tests {
		for _, v := range []Version{V1, V2} {
			var w packetWriter
			if err := NewStatsD(&w, tt.ns, tt.rate, v).Send(tt.stat, tt.kind, tt.delta); err != nil {
				t.Fatal(err)
			}
			if len(w.packets) != 1 || w.packets[0] != tt.want {
				t.Errorf("%v Send(%q, %q, %v) with rate %v: packets %q, want [%q]", v, tt.stat, tt.kind, tt.delta, tt.rate, w.packets, tt.want)
			}
		}
	}
}

func TestParseVersion(t *testing.T) {
	for _, v := range []Version{V1, V2} {
		if got, err := ParseVersion(v.String()); got != v || err != nil {
			t.Errorf("ParseVersion(%q) = %v, %v", v, got, err)
		}
	}
	if _, err := ParseVersion("v3"); err == nil || !strings.Contains(err.Error(), `"v3"`) {
		t.Errorf("ParseVersion(v3): got %v, want an error naming it", err)
	}
}

// FuzzQueryValue checks V2's in-place query scan against url.ParseQuery,
// which V1 uses through FormValue.
func FuzzQueryValue(f *testing.F) {
	for _, q := range []string{
		"str=test&len=50&chr=*", "str=a%20b&str=c", "str=%zz&str=ok", "a;b=1&str=x",
		"str", "=x&str=y", "st%72=1", "str=a+b", "&&str=&", "len=%",
	} {
		f.Add(q, "str")
	}
	f.Fuzz(func(t *testing.T, q, key string) {
		want := ""
		if vals, _ := url.ParseQuery(q); vals != nil {
			want = vals.Get(key)
		}
		if got := queryValue(q, key); got != want {
			t.Errorf("queryValue(%q, %q) = %q, url.ParseQuery gives %q", q, key, got, want)
		}
	})
}

// FuzzJSONString checks V2's JSON string encoder against encoding/json.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"******test", `a"b\c`, "<&>", "\x00\x1f\b\f\n\r\t", "\u2028\u2029", "\xff\xfe", "é世界"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		want, err := json.Marshal(string(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, encoding/json gives %s", s, got, want)
		}
	})
}
