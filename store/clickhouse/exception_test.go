package clickhouse

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/clickhousetest"
)

// TestParseException reads the answers of several releases to failed
// requests: 18.16's, as the shared node gives them, and later releases'
// as they appear in their users' reports.
func TestParseException(t *testing.T) {
	for _, tc := range []struct {
		body    string
		code    int
		message string
	}{
		{"Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception\n", 60, "Table default.x doesn't exist"},
		{"Code: 62, e.displayText() = DB::Exception: Syntax error: failed at position 1: SELEC 1\n. Expected one of: SYSTEM query, SELECT subquery, DESC, e.what() = DB::Exception\n", 62, "Syntax error: failed at position 1: SELEC 1"},
		{"Code: 60, e.displayText() = DB::Exception: Table default.sales_all doesn't exist. (version 20.8.3.18)\n", 60, "Table default.sales_all doesn't exist"},
		{"Code: 50, e.displayText() = DB::Exception: Unknown data type family: Lowcardinality. Maybe you meant: [\\'LowCardinality\\'] (version 20.12.3.3 (official build))", 50, "Unknown data type family: Lowcardinality. Maybe you meant: [\\'LowCardinality\\']"},
		{"Code: 60. DB::Exception: Unknown table expression identifier 'processlist' in scope SELECT * FROM processlist. (UNKNOWN_TABLE) (version 25.11.1.1)\n", 60, "Unknown table expression identifier 'processlist' in scope SELECT * FROM processlist"},
		{"Code: 60. DB::Exception: Received from localhost:9000. DB::Exception: Table test.keys doesn't exist. (UNKNOWN_TABLE)", 60, "Received from localhost:9000. DB::Exception: Table test.keys doesn't exist"},
		{"Bad request\n", 0, "Bad request"},
		{"", 0, "empty answer"},
	} {
		e := parseException(tc.body)
		if e.Code != tc.code || e.Message != tc.message {
			t.Errorf("parseException(%q) = %d %q, want %d %q", tc.body, e.Code, e.Message, tc.code, tc.message)
		}
	}
}

// TestServerErrors checks what the client makes of the real server's
// errors: one line with the server, the purpose and ClickHouse's message
// and code, and an *Error to test.
func TestServerErrors(t *testing.T) {
	node := clickhousetest.Node(t)
	db := clickhousetest.Database(t, node)
	c := newClient(Config{Shards: []string{node.HTTPAddr}, Database: db})
	defer c.close()
	ctx := context.Background()
	for _, tc := range []struct {
		sql      string
		code     int
		contains string
	}{
		{"SELEC 1", 62, "Syntax error"},
		{"SELECT * FROM missing", 60, "missing"},
		// An error after some rows, which wait_end_of_query turns into an
		// HTTP error instead of a body cut short.
		{"SELECT number, throwIf(number = 150000) FROM system.numbers LIMIT 200000", 395, "throwIf"},
	} {
		var rows int
		err := c.query(ctx, 0, "testing errors", tc.sql, func(r *rowReader) error {
			for r.more() {
				r.uint64()
				r.uint8()
				rows++
			}
			return nil
		})
		var chErr *Error
		if !errors.As(err, &chErr) || chErr.Code != tc.code {
			t.Errorf("%s: %v (%d rows read), want ClickHouse's error %d", tc.sql, err, rows, tc.code)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "clickhouse "+node.HTTPAddr+": testing errors: ") || !strings.Contains(msg, tc.contains) ||
			strings.ContainsAny(msg, "\n") || strings.Contains(msg, "e.what()") || strings.Contains(msg, "Expected one of") || len(msg) > 2*maxMessage {
			t.Errorf("%s: %q, want one short line with the server, the purpose and %q", tc.sql, msg, tc.contains)
		}
	}
}

func FuzzParseException(f *testing.F) {
	f.Add("Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception\n")
	f.Add("Code: 60. DB::Exception: x. (UNKNOWN_TABLE) (version 25.11.1.1 (official build))")
	f.Fuzz(func(t *testing.T, body string) {
		e := parseException(body)
		if e.Message == "" || strings.ContainsAny(e.Message, "\n\r\t") || len(e.Message) > maxMessage+len("…") {
			t.Errorf("parseException(%q) = %q, want one line of at most %d bytes", body, e.Message, maxMessage)
		}
	})
}
