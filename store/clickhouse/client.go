package clickhouse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
)

// anyShard asks the client to send a request to one shard of its choice,
// trying the others when a shard cannot be reached: the statements that go
// through the Distributed tables.
const anyShard = -1

// maxErrorBody bounds what is read of an answer that reports an error.
const maxErrorBody = 64 << 10

// client speaks ClickHouse's HTTP interface to the shards of a Config
// with net/http alone: the Go drivers do not support servers as old as
// 18.16. Statements go in the request's body, rows of an insert in
// RowBinary compressed with gzip (Content-Encoding, which ClickHouse
// decompresses whatever enable_http_compression says), and answers come
// back in RowBinary, compressed (enable_http_compression=1) and buffered
// by the server until the query is done (wait_end_of_query=1), so that
// an error in the middle of a query is an HTTP error, not a truncated
// body.
type client struct {
	cfg     Config
	timeout time.Duration
	http    *http.Client
	next    atomic.Uint32 // the shard anyShard tries first
}

func newClient(cfg Config) *client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	// Under ClickHouse's keep_alive_timeout (3 s in the configuration
	// Debian ships, 10 s by default), so that a request rarely meets a
	// connection the server is closing.
	tr.IdleConnTimeout = 2 * time.Second
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &client{cfg: cfg, timeout: timeout, http: &http.Client{Transport: tr}}
}

// close releases the client's idle connections.
func (c *client) close() { c.http.CloseIdleConnections() }

// exec runs a statement that returns no rows (DDL, ALTER, INSERT SELECT)
// on shard, which is an index into the Config's Shards or anyShard.
// purpose says what the statement is for, in error messages.
func (c *client) exec(ctx context.Context, shard int, purpose, sql string) error {
	return c.do(ctx, shard, purpose, sql, nil, nil, func(io.Reader) error { return nil })
}

// query runs a SELECT, whose rows come back in RowBinary, and calls read
// with a reader of them. read must consume every row it is given; what
// it reads counts against a budget of maxValueBytes per value.
func (c *client) query(ctx context.Context, shard int, purpose, sql string, read func(*rowReader) error) error {
	return c.do(ctx, shard, purpose, sql+" FORMAT RowBinary", nil, nil, func(body io.Reader) error {
		r := newRowReader(body, 1<<62)
		if err := read(r); err != nil {
			return err
		}
		if r.err != nil {
			return r.err
		}
		if r.more() {
			return errors.New("RowBinary: rows left after the last one read")
		}
		return r.err
	})
}

// insert writes rows, in RowBinary, into table's columns (a list such as
// "(a, b)"), compressed. Through a Distributed table the insert returns
// once every shard has its rows (insert_distributed_sync=1).
func (c *client) insert(ctx context.Context, shard int, purpose, table, columns string, rows *rowWriter) error {
	body, err := gzipped(rows.buf)
	if err != nil {
		return fmt.Errorf("%s: %w", purpose, err)
	}
	settings := url.Values{"query": {"INSERT INTO " + table + " " + columns + " FORMAT RowBinary"}}
	if c.cfg.Cluster != "" {
		settings.Set("insert_distributed_sync", "1")
		settings.Set("insert_distributed_timeout", strconv.Itoa(int(c.timeout/time.Second)))
	}
	return c.do(ctx, shard, purpose, "", body, settings, func(io.Reader) error { return nil })
}

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}}

func gzipped(b []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(b)/3 + 64)
	w := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(w)
	w.Reset(&out)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// do sends one request: sql in the body, or, for an insert, gzipped
// rows in the body and the statement among settings. It calls read with
// the answer's body when ClickHouse answered 200 OK.
func (c *client) do(ctx context.Context, shard int, purpose, sql string, gz []byte, settings url.Values, read func(io.Reader) error) error {
	if shard != anyShard {
		return c.doShard(ctx, shard, purpose, sql, gz, settings, read)
	}
	n := len(c.cfg.Shards)
	first := int(c.next.Add(1)) % n
	var err error
	for i := range n {
		err = c.doShard(ctx, (first+i)%n, purpose, sql, gz, settings, read)
		var chErr *Error
		if err == nil || errors.As(err, &chErr) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

func (c *client) doShard(ctx context.Context, shard int, purpose, sql string, gz []byte, settings url.Values, read func(io.Reader) error) error {
	addr := c.cfg.Shards[shard]
	err := c.roundTrip(ctx, addr, sql, gz, settings, read)
	if err != nil {
		return fmt.Errorf("clickhouse %s: %s: %w", addr, purpose, err)
	}
	return nil
}

func (c *client) roundTrip(parent context.Context, addr, sql string, gz []byte, settings url.Values, read func(io.Reader) error) error {
	ctx, cancel := context.WithTimeout(parent, c.timeout)
	defer cancel()
	params := url.Values{
		"database":                {c.cfg.Database},
		"max_execution_time":      {strconv.Itoa(int(c.timeout / time.Second))},
		"wait_end_of_query":       {"1"},
		"enable_http_compression": {"1"},
	}
	for k, v := range settings {
		params[k] = v
	}
	body := io.Reader(bytes.NewReader(gz))
	if gz == nil {
		body = bytes.NewReader([]byte(sql))
	}
	req, err := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/?"+params.Encode(), body)
	if err != nil {
		return err
	}
	if gz != nil {
		req.Header.Set("Content-Encoding", "gzip")
	}
	if c.cfg.User != "" {
		req.SetBasicAuth(c.cfg.User, c.cfg.Password)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.transportError(parent, ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		text, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return parseException(string(text))
	}
	if err := read(resp.Body); err != nil {
		return c.transportError(parent, ctx, err)
	}
	// Read what read left, so that the connection can serve again.
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	return nil
}

// transportError shortens net/http's errors, which quote the whole
// request URL, and names the client's own timeout: ctx's, when parent's
// has not passed.
func (c *client) transportError(parent, ctx context.Context, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if parent.Err() == nil && ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("no answer within %v: %w", c.timeout, err)
	}
	return err
}
