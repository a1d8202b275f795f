package clickhouse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// An Error is an exception ClickHouse answered a request with.
type Error struct {
	// Code is ClickHouse's error code (60: unknown table, 81: unknown
	// database, 192, 193 and 516: bad credentials, ...), or 0 when the
	// answer had none.
	Code int
	// Message is ClickHouse's text, on one line, without the decorations
	// that differ between releases.
	Message string
}

func (e *Error) Error() string {
	if e.Code == 0 {
		return e.Message
	}
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// codeUnknownDatabase is the code of ClickHouse's exception for a
// database that does not exist.
const codeUnknownDatabase = 81

// maxMessage bounds an exception's text: a syntax error's message lists
// every token the parser expected, which says nothing to a user.
const maxMessage = 300

var (
	// codePrefix is "Code: 60, e.displayText() = " (18.x to 21.x) or
	// "Code: 60. " (later).
	codePrefix = regexp.MustCompile(`^Code: (\d+)(?:, e\.displayText\(\) = |\. |, |: )`)
	// decorations are what releases append: ", e.what() = DB::Exception"
	// (18.x), " (version 20.12.3.3 (official build))" and
	// " (UNKNOWN_TABLE)" (later).
	decorations = regexp.MustCompile(`(?:, e\.what\(\) = [A-Za-z:_]+| \(version [^()]*(?:\([^()]*\))?\)| \([A-Z][A-Z_]+\))+$`)
	space       = regexp.MustCompile(`\s+`)
)

// parseException reads the text of ClickHouse's answer to a failed
// request: Code: N, the exception's class and message, and what each
// release adds around them.
func parseException(body string) *Error {
	text := strings.TrimSpace(space.ReplaceAllString(body, " "))
	e := &Error{}
	if m := codePrefix.FindStringSubmatch(text); m != nil {
		e.Code, _ = strconv.Atoi(m[1])
		text = text[len(m[0]):]
	}
	text = decorations.ReplaceAllString(text, "")
	for {
		rest, ok := strings.CutPrefix(text, "DB::Exception: ")
		if !ok {
			break
		}
		text = rest
	}
	if i := strings.Index(text, " Expected one of: "); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "."))
	if len(text) > maxMessage {
		text = strings.ToValidUTF8(text[:maxMessage], "") + "…"
	}
	if text == "" {
		text = "empty answer"
	}
	e.Message = text
	return e
}
