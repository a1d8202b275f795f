package serverbench

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// A Push is one request to /ingest as pyroscope-go sends it.
type Push struct {
	// Query is the URL's query: name, from, until, spyName, sampleRate.
	Query string
	// ContentType is the multipart form's, with its boundary.
	ContentType string
	// Body is the form: a part "profile" holding the gzipped pprof.
	Body []byte
}

// NewPush encodes p as pyroscope-go pushes it: the application name is
// the service_name label with the kind's suffix .cpu, the other labels
// but __name__ go in braces, from and until (Unix nanoseconds) span the
// profile's duration.
func NewPush(p store.Profile) (Push, error) {
	// Gzipped at gzip.BestSpeed, as runtime/pprof writes it (and three
	// times faster than profile.Write's default level).
	var pprof bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&pprof, gzip.BestSpeed)
	err := p.Profile.WriteUncompressed(zw)
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return Push{}, fmt.Errorf("serverbench: encoding a profile: %w", err)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("profile", "profile.pprof")
	if err == nil {
		_, err = part.Write(pprof.Bytes())
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return Push{}, fmt.Errorf("serverbench: writing a form: %w", err)
	}
	var name strings.Builder
	name.WriteString(p.Labels.Get(store.LabelService) + ".cpu{")
	sep := ""
	for _, l := range p.Labels {
		if l.Name != store.LabelName && l.Name != store.LabelService {
			name.WriteString(sep + l.Name + "=" + l.Value)
			sep = ","
		}
	}
	name.WriteString("}")
	from := p.Time
	until := from.Add(time.Duration(p.Profile.DurationNanos))
	q := url.Values{}
	q.Set("name", name.String())
	q.Set("from", strconv.FormatInt(from.UnixNano(), 10))
	q.Set("until", strconv.FormatInt(until.UnixNano(), 10))
	q.Set("spyName", "gospy")
	q.Set("sampleRate", "100")
	return Push{Query: q.Encode(), ContentType: w.FormDataContentType(), Body: body.Bytes()}, nil
}

// Pushes encodes the first rounds CPU profiles of every instance of f,
// round after round (the order in which a fleet pushes them), using
// every core.
func Pushes(f *fleetgen.Fleet, rounds int) ([]Push, error) {
	n := f.Config().Instances
	pushes := make([]Push, rounds*n)
	errs := make([]error, runtime.GOMAXPROCS(0))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(pushes) && errs[w] == nil; i = int(next.Add(1) - 1) {
				p, err := f.Profile("cpu", i%n, i/n)
				if err == nil {
					pushes[i], err = NewPush(p)
				}
				errs[w] = err
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pushes, nil
}

// A Result tells how a Run went.
type Result struct {
	// Sent is the number of pushes the server acknowledged.
	Sent int
	// Retries counts the answers 429 and 503 (the server's memory budget
	// is spent), each retried after 10 ms.
	Retries int64
	// Wall is the time from the first request to the last answer.
	Wall time.Duration
}

// Run posts pushes to base's /ingest (base is http://HOST:PORT) from
// conns connections at once, in order, and stops at the first push the
// server refuses for another cause than its budget, or when ctx is done.
func Run(ctx context.Context, base string, pushes []Push, conns int) (Result, error) {
	conns = max(conns, 1)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	defer client.CloseIdleConnections()
	var res Result
	var next atomic.Int64
	errs := make([]error, conns)
	var retries atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range errs {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(pushes) && errs[w] == nil; i = int(next.Add(1) - 1) {
				errs[w] = post(ctx, client, base, pushes[i], &retries)
			}
		})
	}
	wg.Wait()
	res.Wall, res.Retries = time.Since(start), retries.Load()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	res.Sent = len(pushes)
	return res, nil
}

// post sends p until the server takes it, counting the retries.
func post(ctx context.Context, client *http.Client, base string, p Push, retries *atomic.Int64) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/ingest?"+p.Query, bytes.NewReader(p.Body))
		if err != nil {
			return fmt.Errorf("serverbench: %w", err)
		}
		req.Header.Set("Content-Type", p.ContentType)
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("serverbench: push: %w", err)
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		switch {
		case resp.StatusCode/100 == 2:
			return nil
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
			retries.Add(1)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		default:
			return fmt.Errorf("serverbench: push refused: %s: %s", resp.Status, strings.TrimSpace(string(msg)))
		}
	}
}
