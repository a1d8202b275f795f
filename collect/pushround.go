package collect

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// cumulative reports whether a kind counts since the program started, so
// that Push sends its growth over each interval.
func cumulative(k Kind) bool { return k == Allocs || k == Heap || k == Mutex || k == Block }

// lookupName is the runtime/pprof profile a kind reads.
func lookupName(k Kind) string {
	if k == Allocs {
		return "heap"
	}
	return string(k)
}

// round collects one interval's profiles and sends them; last also stops
// the CPU profiler instead of starting its next slice.
func (p *Pusher) round(last bool) []error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	send := func(what string, prof []byte, from, until time.Time, config string) {
		if err := p.send(prof, from, until, config); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	now := time.Now()
	if p.cpu != nil {
		pprof.StopCPUProfile()
		data, from := p.cpu.Bytes(), p.cpuStart
		if !last {
			p.cpu, p.cpuStart = new(bytes.Buffer), time.Now()
			if err := pprof.StartCPUProfile(p.cpu); err != nil {
				errs = append(errs, fmt.Errorf("cpu: %w", err))
				p.cpu = nil
			}
		}
		send("cpu", data, from, now, "")
	}
	sentMemory := false
	for _, k := range p.opts.Kinds {
		if k == CPU || (k == Allocs || k == Heap) && sentMemory {
			continue
		}
		sentMemory = sentMemory || k == Allocs || k == Heap
		data, err := p.profileOf(k)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", k, err))
			continue
		}
		send(string(k), data, now.Add(-p.opts.Interval), now, sampleTypeConfig[k])
	}
	return errs
}

// profileOf returns the gzipped profile of kind k to send now: a
// snapshot, or for a cumulative kind the growth since the last one (of
// the memory profile, only alloc_* grows: inuse_* is sent as it is).
func (p *Pusher) profileOf(k Kind) ([]byte, error) {
	cur, err := snapshot(pprof.Lookup(lookupName(k)))
	if err != nil {
		return nil, err
	}
	out := cur
	if prev := p.prev[k]; cumulative(k) && prev != nil {
		if k == Allocs || k == Heap {
			keepInUse(prev)
		}
		if out, err = subtract(cur.Copy(), prev); err != nil {
			return nil, err
		}
	}
	if cumulative(k) {
		p.prev[k] = cur
	}
	var buf bytes.Buffer
	if err := out.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// keepInUse zeroes the inuse_* values of a memory profile's baseline, so
// that subtracting it leaves them as they are now.
func keepInUse(base *profile.Profile) {
	for i, st := range base.SampleType {
		if strings.HasPrefix(st.Type, "inuse_") {
			for _, s := range base.Sample {
				s.Value[i] = 0
			}
		}
	}
}

// sampleTypeConfig is the sample_type_config part sent with each kind,
// as Pyroscope's SDK sends it: it tells the server a block profile from a
// mutex profile, whose sample types are the same.
var sampleTypeConfig = map[Kind]string{
	Mutex: `{"contentions":{"display-name":"mutex_count","units":"lock_samples"},"delay":{"display-name":"mutex_duration","units":"lock_nanoseconds"}}`,
	Block: `{"contentions":{"display-name":"block_count","units":"lock_samples"},"delay":{"display-name":"block_duration","units":"lock_nanoseconds"}}`,
}

// send posts one profile to URL/ingest.
func (p *Pusher) send(prof []byte, from, until time.Time, config string) error {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("profile", "profile.pprof")
	fw.Write(prof)
	if config != "" {
		fw, _ = w.CreateFormFile("sample_type_config", "sample_type_config.json")
		fw.Write([]byte(config))
	}
	w.Close()
	u := *p.target
	u.Path = strings.TrimSuffix(u.Path, "/") + "/ingest"
	q := u.Query()
	q.Set("name", pushName(p.opts.Service, p.opts.Labels))
	q.Set("from", strconv.FormatInt(from.UnixNano(), 10))
	q.Set("until", strconv.FormatInt(until.UnixNano(), 10))
	q.Set("spyName", "perflab")
	q.Set("sampleRate", strconv.Itoa(100))
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), &body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	for k, vs := range p.opts.Header {
		req.Header[k] = slices.Clone(vs)
	}
	if p.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+p.opts.Token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return p.redact(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var msg [512]byte
		n, _ := resp.Body.Read(msg[:])
		return p.redact(fmt.Errorf("%s: %s: %s", u.Redacted(), resp.Status, strings.TrimSpace(string(msg[:n]))))
	}
	return nil
}

// pushName is the name parameter of /ingest: SERVICE{k=v,...}.
func pushName(service string, labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + labels[k]
	}
	return service + "{" + strings.Join(parts, ",") + "}"
}

// redact keeps the token and credential headers out of an error.
func (p *Pusher) redact(err error) error {
	msg := err.Error()
	secrets := []string{p.opts.Token}
	for k, vs := range p.opts.Header {
		if strings.Contains(strings.ToLower(k), "auth") || strings.Contains(strings.ToLower(k), "token") {
			secrets = append(secrets, vs...)
		}
	}
	for _, s := range secrets {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "<redacted>")
		}
	}
	return fmt.Errorf("%s", oneLineMsg(msg))
}

// oneLineMsg puts a message on one line.
func oneLineMsg(s string) string { return strings.Join(strings.Fields(s), " ") }

// setRates switches on the mutex and block profiles Push sends, at the
// rate of one event in every one (as Start does), unless the program set
// its own; Stop restores them.
func (p *Pusher) setRates() {
	if slices.Contains(p.opts.Kinds, Mutex) {
		if prev := runtime.SetMutexProfileFraction(-1); prev == 0 {
			runtime.SetMutexProfileFraction(1)
			p.restore = append(p.restore, func() { runtime.SetMutexProfileFraction(prev) })
		}
	}
	if slices.Contains(p.opts.Kinds, Block) {
		// The block rate cannot be read back: set it only while pushing.
		runtime.SetBlockProfileRate(1)
		p.restore = append(p.restore, func() { runtime.SetBlockProfileRate(0) })
	}
}

func (p *Pusher) restoreRates() {
	for _, f := range p.restore {
		f()
	}
	p.restore = nil
}
