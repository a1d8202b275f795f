package clickhouse

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
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
	return c.do(ctx, &request{shard: shard, purpose: purpose, sql: sql})
}

// query runs a SELECT, whose rows come back in RowBinary, and calls read
// with a reader of them. read must consume every row it is given.
func (c *client) query(ctx context.Context, shard int, purpose, sql string, read func(*rowReader) error) error {
	return c.do(ctx, &request{shard: shard, purpose: purpose, sql: sql, read: read})
}

// An external is a temporary table sent along with a query, which the
// query names as name (ClickHouse's external data): a list of hashes to
// look up, for example. Through a Distributed table ClickHouse sends it
// to every shard.
type external struct {
	name      string
	structure string // its columns: "hash UInt64"
	rows      *rowWriter
}

// queryExternal is query with temporary tables.
func (c *client) queryExternal(ctx context.Context, shard int, purpose, sql string, exts []external, read func(*rowReader) error) error {
	return c.do(ctx, &request{shard: shard, purpose: purpose, sql: sql, externals: exts, read: read})
}

// insert writes rows, in RowBinary, into table's columns (a list such as
// "(a, b)"), compressed. Through a Distributed table the insert returns
// once every shard has its rows (insert_distributed_sync=1).
func (c *client) insert(ctx context.Context, shard int, purpose, table, columns string, rows *rowWriter) error {
	return c.do(ctx, &request{shard: shard, purpose: purpose, sql: "INSERT INTO " + table + " " + columns, insert: rows})
}

// A request is one statement for ClickHouse.
type request struct {
	shard   int
	purpose string
	sql     string
	// insert holds the rows of an INSERT.
	insert *rowWriter
	// externals hold temporary tables for a SELECT.
	externals []external
	// read reads a SELECT's rows; nil for other statements.
	read func(*rowReader) error
}

// do sends r to its shard, or, for anyShard, to one shard after another
// until one can be reached.
func (c *client) do(ctx context.Context, r *request) error {
	body, header, params, err := c.encode(r)
	if err != nil {
		return fmt.Errorf("%s: %w", r.purpose, err)
	}
	shards := []int{r.shard}
	if r.shard == anyShard {
		n := len(c.cfg.Shards)
		first := int(c.next.Add(1)) % n
		shards = shards[:0]
		for i := range n {
			shards = append(shards, (first+i)%n)
		}
	}
	for _, shard := range shards {
		addr := c.cfg.Shards[shard]
		err = c.roundTrip(ctx, addr, body, header, params, r.read)
		if err == nil {
			return nil
		}
		err = fmt.Errorf("clickhouse %s: %s: %w", addr, r.purpose, err)
		var chErr *Error
		if errors.As(err, &chErr) || ctx.Err() != nil {
			break
		}
	}
	return err
}

// encode returns r's body, headers and URL parameters: a statement in
// the body; an insert's statement in the URL and its rows, gzipped, in
// the body; a query with temporary tables as a multipart form.
func (c *client) encode(r *request) (body []byte, header http.Header, params url.Values, err error) {
	header = http.Header{}
	params = url.Values{
		"database":           {c.cfg.Database},
		"max_execution_time": {strconv.Itoa(int(c.timeout / time.Second))},
	}
	sql := r.sql
	if r.read != nil {
		sql += " FORMAT RowBinary"
		params.Set("wait_end_of_query", "1")
		params.Set("enable_http_compression", "1")
	}
	switch {
	case r.insert != nil:
		params.Set("query", sql+" FORMAT RowBinary")
		// One block, so that each shard gets its rows in one part: all
		// or none (see writer.missing).
		params.Set("max_insert_block_size", strconv.Itoa(max(r.insert.rows+1, 1<<20)))
		if c.cfg.Cluster != "" {
			params.Set("insert_distributed_sync", "1")
			params.Set("insert_distributed_timeout", strconv.Itoa(int(c.timeout/time.Second)))
		}
		header.Set("Content-Encoding", "gzip")
		body, err = gzipped(r.insert.buf)
	case r.externals != nil:
		params.Set("query", sql)
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for _, ext := range r.externals {
			params.Set(ext.name+"_structure", ext.structure)
			params.Set(ext.name+"_format", "RowBinary")
			fw, _ := mw.CreateFormFile(ext.name, ext.name)
			fw.Write(ext.rows.buf)
		}
		err = mw.Close()
		header.Set("Content-Type", mw.FormDataContentType())
		body = b.Bytes()
	default:
		body = []byte(sql)
	}
	if c.cfg.User != "" {
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.cfg.User+":"+c.cfg.Password)))
	}
	return body, header, params, err
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

// roundTrip sends one request to addr and reads its answer: rows with
// read, when ClickHouse answered 200 OK, or its exception.
func (c *client) roundTrip(parent context.Context, addr string, body []byte, header http.Header, params url.Values, read func(*rowReader) error) error {
	ctx, cancel := context.WithTimeout(parent, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/?"+params.Encode(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	maps.Copy(req.Header, header)
	resp, err := c.http.Do(req)
	if err != nil {
		return c.transportError(parent, ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		text, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return parseException(string(text))
	}
	if read != nil {
		if err := readRows(resp.Body, read); err != nil {
			return c.transportError(parent, ctx, err)
		}
	}
	// Read what is left, so that the connection can serve again.
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	return nil
}

// readRows calls read with a reader of body's rows, and checks that it
// read them all.
func readRows(body io.Reader, read func(*rowReader) error) error {
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
