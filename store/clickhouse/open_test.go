package clickhouse

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
)

// TestOpenErrors checks that what keeps a store from opening is told in
// one line naming the input and the cause.
func TestOpenErrors(t *testing.T) {
	node := clickhousetest.Node(t)
	db := clickhousetest.Database(t, node)
	shard0 := clickhousetest.TwoShards(t).Shards[0]
	closed := strings.TrimSuffix(strings.TrimPrefix(testprog.ClosedPortURL(t), "http://"), "/")
	for _, tc := range []struct {
		url  string
		want []string
	}{
		{"clickhouse://" + node.HTTPAddr, []string{"no database"}},
		{"clickhouse://" + closed + "/" + db, []string{closed, "connection refused"}},
		{"clickhouse://" + clickhousetest.User + ":wrong@" + node.HTTPAddr + "/" + db, []string{node.HTTPAddr, "user " + clickhousetest.User, "password", "code 193"}},
		{"clickhouse://nobody@" + node.HTTPAddr + "/" + db, []string{node.HTTPAddr, "user nobody", "code 192"}},
		{"clickhouse://" + node.HTTPAddr + "/nope", []string{node.HTTPAddr, "database nope", "doesn't exist", "CREATE DATABASE nope"}},
		{"clickhouse://" + shard0.HTTPAddr + "/default?cluster=" + clickhousetest.ClusterName, []string{shard0.HTTPAddr, "cluster " + clickhousetest.ClusterName + " has 2 shards", "one host for each, not 1"}},
		{"clickhouse://" + node.HTTPAddr + "/" + db + "?cluster=nope", []string{"cluster nope has 0 shards", "not 1"}},
	} {
		st, err := Open(context.Background(), tc.url, store.Limits{})
		if err == nil {
			st.Close()
			t.Errorf("Open(%q) succeeded", tc.url)
			continue
		}
		msg := err.Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("Open(%q): %q, want it to say %q", tc.url, msg, w)
			}
		}
		if strings.Contains(msg, "\n") || strings.Contains(msg, "wrong@") {
			t.Errorf("Open(%q): %q, want one line without the password", tc.url, msg)
		}
	}
}

// TestOpenCredentials opens a store as the servers' second user, with
// the password in the URL's user information and in its parameters.
func TestOpenCredentials(t *testing.T) {
	node := clickhousetest.Node(t)
	db := clickhousetest.Database(t, node)
	user, pass := url.PathEscape(clickhousetest.User), url.PathEscape(clickhousetest.Password)
	for _, u := range []string{
		"clickhouse://" + user + ":" + pass + "@" + node.HTTPAddr + "/" + db,
		"clickhouse://" + node.HTTPAddr + "/" + db + "?" + url.Values{"user": {clickhousetest.User}, "password": {clickhousetest.Password}}.Encode(),
	} {
		st := open(t, u)
		if v := st.Version(); v == "" {
			t.Errorf("Open(%q): no server version", u)
		}
	}
}
