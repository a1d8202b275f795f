package clickhouse

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Scheme is the scheme of the URLs that name a ClickHouse store.
const Scheme = "clickhouse"

// DefaultPort is the port of ClickHouse's HTTP interface.
const DefaultPort = "8123"

// DefaultTimeout bounds each request to ClickHouse unless the URL's
// timeout parameter says otherwise.
const DefaultTimeout = 60 * time.Second

// A Config says where a store's ClickHouse is and how to reach it, as a
// URL names it:
//
//	clickhouse://[USER[:PASSWORD]@]HOST[:PORT][,HOST[:PORT]...]/DATABASE[?PARAMS]
//
// The parameters are cluster=NAME (required with more than one host),
// user=USER, password=PASSWORD and timeout=DURATION.
type Config struct {
	// Shards are the HOST:PORT addresses of the HTTP interface of each
	// shard of the cluster, or of the one node.
	Shards []string
	// Database is the ClickHouse database that holds the store's
	// tables. It must exist.
	Database string
	// Cluster names the cluster in the servers' remote_servers section
	// whose shards are Shards, in that order; empty for one node.
	Cluster string
	// User and Password are the credentials; an empty User is
	// ClickHouse's default user.
	User, Password string
	// Timeout bounds each request; zero means DefaultTimeout.
	Timeout time.Duration
}

// ParseURL reads a clickhouse:// URL (see Config).
func ParseURL(s string) (Config, error) {
	c, err := parseURL(s)
	if err != nil {
		return Config{}, fmt.Errorf("store URL %q: %w", redact(s), err)
	}
	return c, nil
}

func parseURL(s string) (Config, error) {
	var c Config
	rest, ok := strings.CutPrefix(s, Scheme+"://")
	if !ok {
		return c, fmt.Errorf("want %s://HOST:PORT[,HOST:PORT...]/DATABASE", Scheme)
	}
	rest, rawQuery, _ := strings.Cut(rest, "?")
	hosts, db, ok := strings.Cut(rest, "/")
	if !ok || db == "" {
		return c, fmt.Errorf("no database: want %s://HOST:PORT/DATABASE", Scheme)
	}
	if err := c.setDatabase(db); err != nil {
		return c, err
	}
	if at := strings.LastIndexByte(hosts, '@'); at >= 0 {
		if err := c.setUserInfo(hosts[:at]); err != nil {
			return c, err
		}
		hosts = hosts[at+1:]
	}
	if err := c.setShards(hosts); err != nil {
		return c, err
	}
	if err := c.setParams(rawQuery); err != nil {
		return c, err
	}
	if len(c.Shards) > 1 && c.Cluster == "" {
		return c, fmt.Errorf("%d hosts but no cluster=NAME: several hosts are the shards of a cluster", len(c.Shards))
	}
	return c, nil
}

func (c *Config) setDatabase(db string) error {
	db, err := url.PathUnescape(db)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	if !identifier(db) {
		return fmt.Errorf("database %q: want a name of letters, digits and _", clip(db))
	}
	c.Database = db
	return nil
}

func (c *Config) setUserInfo(info string) error {
	user, pass, hasPass := strings.Cut(info, ":")
	var err error
	if c.User, err = url.PathUnescape(user); err != nil {
		return fmt.Errorf("user: %w", err)
	}
	if hasPass {
		if c.Password, err = url.PathUnescape(pass); err != nil {
			return fmt.Errorf("password: %w", err)
		}
	}
	return nil
}

func (c *Config) setShards(hosts string) error {
	if hosts == "" {
		return fmt.Errorf("no host")
	}
	for h := range strings.SplitSeq(hosts, ",") {
		addr, err := hostPort(h)
		if err != nil {
			return err
		}
		if slices.Contains(c.Shards, addr) {
			return fmt.Errorf("host %s given twice", addr)
		}
		c.Shards = append(c.Shards, addr)
	}
	return nil
}

// hostPort returns h as HOST:PORT, with DefaultPort when h has none.
func hostPort(h string) (string, error) {
	host, port := h, DefaultPort
	if strings.HasPrefix(h, "[") || strings.Count(h, ":") == 1 {
		var err error
		if host, port, err = net.SplitHostPort(h); err != nil {
			if !strings.HasSuffix(h, "]") {
				return "", fmt.Errorf("host %q: want HOST or HOST:PORT", clip(h))
			}
			host, port = strings.Trim(h, "[]"), DefaultPort
		}
	}
	if host == "" || strings.ContainsAny(host, "/?#@[] ") {
		return "", fmt.Errorf("host %q: want HOST or HOST:PORT", clip(h))
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("host %q: port %q is not a number from 1 to 65535", clip(h), clip(port))
	}
	return net.JoinHostPort(host, port), nil
}

func (c *Config) setParams(rawQuery string) error {
	params, err := url.ParseQuery(rawQuery)
	if err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	for name, values := range params {
		if len(values) > 1 {
			return fmt.Errorf("parameter %s given %d times", name, len(values))
		}
		v := values[0]
		switch name {
		case "cluster":
			if !identifier(v) {
				return fmt.Errorf("cluster %q: want a name of letters, digits and _", clip(v))
			}
			c.Cluster = v
		case "user":
			c.User = v
		case "password":
			c.Password = v
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("timeout %q: want a positive duration such as 30s", clip(v))
			}
			c.Timeout = d
		default:
			return fmt.Errorf("unknown parameter %q: want cluster, user, password or timeout", clip(name))
		}
	}
	return nil
}

// String returns c as a URL, without its password.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(Scheme + "://")
	if c.User != "" {
		b.WriteString(url.User(c.User).String())
		if c.Password != "" {
			b.WriteString(":xxxxx")
		}
		b.WriteByte('@')
	}
	b.WriteString(strings.Join(c.Shards, ","))
	b.WriteString("/" + c.Database)
	params := url.Values{}
	if c.Cluster != "" {
		params.Set("cluster", c.Cluster)
	}
	if c.Timeout != 0 {
		params.Set("timeout", c.Timeout.String())
	}
	if len(params) > 0 {
		b.WriteString("?" + params.Encode())
	}
	return b.String()
}

// redact hides the password of a URL given to ParseURL, for messages.
func redact(s string) string {
	if i := strings.Index(s, "://"); i >= 0 {
		if at := strings.LastIndexByte(s, '@'); at > i {
			if colon := strings.IndexByte(s[i+3:at], ':'); colon >= 0 {
				s = s[:i+3+colon+1] + "xxxxx" + s[at:]
			}
		}
	}
	if i := strings.Index(s, "password="); i >= 0 {
		end := strings.IndexByte(s[i:], '&')
		if end < 0 {
			end = len(s) - i
		}
		s = s[:i] + "password=xxxxx" + s[i+end:]
	}
	return clip(s)
}

// identifier reports whether s is a name ClickHouse takes unquoted:
// [a-zA-Z_][a-zA-Z0-9_]*, at most 128 bytes.
func identifier(s string) bool {
	if s == "" || len(s) > 128 || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9') {
			return false
		}
	}
	return true
}

// clip shortens s for a message.
func clip(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
