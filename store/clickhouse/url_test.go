package clickhouse

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want Config
	}{
		{"clickhouse://127.0.0.1:8123/perflab", Config{Shards: []string{"127.0.0.1:8123"}, Database: "perflab"}},
		{"clickhouse://ch/perflab", Config{Shards: []string{"ch:8123"}, Database: "perflab"}},
		{"clickhouse://[::1]/db", Config{Shards: []string{"[::1]:8123"}, Database: "db"}},
		{"clickhouse://[::1]:9123/db", Config{Shards: []string{"[::1]:9123"}, Database: "db"}},
		{"clickhouse://a:1,b:2,c/db?cluster=fleet", Config{Shards: []string{"a:1", "b:2", "c:8123"}, Database: "db", Cluster: "fleet"}},
		{"clickhouse://u:p%40ss@a/db", Config{Shards: []string{"a:8123"}, Database: "db", User: "u", Password: "p@ss"}},
		{"clickhouse://a/db?user=u&password=p%26q&timeout=90s", Config{Shards: []string{"a:8123"}, Database: "db", User: "u", Password: "p&q", Timeout: 90 * time.Second}},
		{"clickhouse://u@a/db", Config{Shards: []string{"a:8123"}, Database: "db", User: "u"}},
		{"clickhouse://a/db?user=a:b@c", Config{Shards: []string{"a:8123"}, Database: "db", User: "a:b@c"}},
	} {
		got, err := ParseURL(tc.url)
		if err != nil {
			t.Errorf("ParseURL(%q): %v", tc.url, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseURL(%q) = %+v, want %+v", tc.url, got, tc.want)
		}
		// String reads back as the same Config, without the password.
		again, err := ParseURL(got.String())
		tc.want.Password = ""
		if got.Password != "" {
			again.Password = ""
		}
		if err != nil || !reflect.DeepEqual(again, tc.want) {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v", got.String(), again, err, tc.want)
		}
	}
}

func TestParseURLErrors(t *testing.T) {
	for _, tc := range []struct{ url, err string }{
		{"http://a/db", "want clickhouse://"},
		{"clickhouse://a", "no database"},
		{"clickhouse://a/", "no database"},
		{"clickhouse:///db", "no host"},
		{"clickhouse://a/my-db", `database "my-db"`},
		{"clickhouse://a/db/x", `database "db/x"`},
		{"clickhouse://a:x/db", `port "x"`},
		{"clickhouse://a:0/db", `port "0"`},
		{"clickhouse://a:70000/db", `port "70000"`},
		{"clickhouse://a:/db", `port ""`},
		{"clickhouse://a,/db", `host ""`},
		{"clickhouse://a,b/db", "2 hosts but no cluster=NAME"},
		{"clickhouse://a,a:8123/db?cluster=c", "host a:8123 given twice"},
		{"clickhouse://a/db?cluster=x-y", `cluster "x-y"`},
		{"clickhouse://a/db?timeout=soon", `timeout "soon"`},
		{"clickhouse://a/db?timeout=-1s", `timeout "-1s"`},
		{"clickhouse://a/db?database=x", `unknown parameter "database"`},
		{"clickhouse://a/db?user=a&user=b", "parameter user given 2 times"},
		{"clickhouse://u:secret@a/db?x=1", `"clickhouse://u:xxxxx@a/db?x=1"`},
		{"clickhouse://a/db?password=secret&x=1", `"clickhouse://a/db?password=xxxxx&x=1"`},
	} {
		_, err := ParseURL(tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "secret") {
			t.Errorf("ParseURL(%q): %v, want an error with %q and no password", tc.url, err, tc.err)
		}
	}
}

func FuzzParseURL(f *testing.F) {
	f.Add("clickhouse://u:p@a:1,b/db?cluster=c&timeout=1s")
	f.Add("clickhouse://[::1]:9000/db?password=x")
	f.Add("clickhouse://a/db?user=a:b@c")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseURL(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Errorf("error on two lines: %q", err)
			}
			return
		}
		again, err := ParseURL(c.String())
		if err != nil {
			t.Fatalf("ParseURL(%q) = %+v, whose String %q fails: %v", s, c, c.String(), err)
		}
		c.Password, again.Password = "", ""
		if !reflect.DeepEqual(c, again) {
			t.Errorf("ParseURL(%q) = %+v, reads back as %+v", s, c, again)
		}
	})
}
