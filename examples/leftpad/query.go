package leftpad

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// params are a request's parsed parameters.
type params struct {
	str    string
	length int
	chr    rune
}

// parseParams reads str, len and chr through get, which returns a query
// parameter's first value. len defaults to 0 and chr to a space.
func parseParams(get func(string) string) (params, error) {
	p := params{str: get("str"), chr: ' '}
	if l := get("len"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 || n > MaxLen {
			return p, fmt.Errorf("len=%q: want a whole number from 0 to %d", l, MaxLen)
		}
		p.length = n
	}
	if c := get("chr"); c != "" {
		r, size := utf8.DecodeRuneInString(c)
		if size != len(c) || r == utf8.RuneError {
			return p, errors.New("chr: want exactly one character")
		}
		p.chr = r
	}
	return p, nil
}

// queryValue returns the first value of key in the raw query string q, as
// url.ParseQuery followed by Get would, but without building a map:
// pairs holding a semicolon or a bad escape are skipped as ParseQuery
// skips them, and only escaped text is unescaped (and allocated).
func queryValue(q, key string) string {
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, ok := unescape(k)
		if !ok || k != key {
			continue
		}
		if v, ok = unescape(v); ok {
			return v
		}
	}
	return ""
}

// unescape is url.QueryUnescape, skipped when there is nothing to undo.
func unescape(s string) (string, bool) {
	if !strings.ContainsAny(s, "%+") {
		return s, true
	}
	u, err := url.QueryUnescape(s)
	return u, err == nil
}
