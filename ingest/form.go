package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/store"
)

// An ingestRequest is what one POST /ingest says, as parseIngest reads it.
type ingestRequest struct {
	// Name is the name parameter: the application and its labels.
	Name Name
	// From and Until are the from and until parameters, zero when absent.
	From, Until time.Time
	// SpyName is the spyName parameter (gospy for the Go SDK), "unknown"
	// when absent, as Pyroscope has it; it becomes the pyroscope_spy label.
	SpyName string
	// Profile is the pprof profile, gzipped or not.
	Profile []byte
	// sampleTypeConfig is the SDK's sample_type_config part, if any.
	sampleTypeConfig map[string]*sampleTypeConfig
}

// The parts of the multipart form the SDKs send.
const (
	partProfile          = "profile"
	partPreviousProfile  = "prev_profile"
	partSampleTypeConfig = "sample_type_config"
)

// parseIngest reads a POST /ingest request from its query, Content-Type
// and body: a multipart form whose profile part is a pprof profile (and
// whose sample_type_config part, if any, is the SDK's JSON), or, with
// format=pprof, a bare pprof body. The copy of the profile part is taken
// from q (see pprofproto.ReadAll). Parameters it does not use (sampleRate,
// units, aggregationType) are ignored, as Pyroscope ignores them for pprof.
func parseIngest(query url.Values, contentType string, body []byte, q pprofproto.Quota, now time.Time) (ingestRequest, error) {
	var req ingestRequest
	var err error
	if req.Name, err = ParseName(query.Get("name")); err != nil {
		return req, err
	}
	if req.From, err = parseTime("from", query.Get("from"), now); err != nil {
		return req, err
	}
	if req.Until, err = parseTime("until", query.Get("until"), now); err != nil {
		return req, err
	}
	req.SpyName = query.Get("spyName")
	if req.SpyName == "" {
		req.SpyName = "unknown"
	}
	switch format := query.Get("format"); {
	case format == "pprof":
		req.Profile = body
		return req, nil
	case format != "":
		return req, invalidf("format %q: perflab takes pprof profiles only", clip(format))
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return req, invalidf("body: want a multipart/form-data form with a pprof profile part, or format=pprof and a bare profile; Content-Type is %q", clip(contentType))
	}
	err = readForm(&req, multipart.NewReader(bytes.NewReader(body), params["boundary"]), q)
	return req, err
}

// readForm reads the parts of an /ingest form into req.
func readForm(req *ingestRequest, mr *multipart.Reader, q pprofproto.Quota) error {
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return invalidf("body: malformed multipart form: %v", err)
		}
		switch part.FormName() {
		case partProfile:
			if req.Profile, err = pprofproto.ReadAll(part, -1, q); err != nil {
				return formError(partProfile, err)
			}
		case partPreviousProfile:
			return invalidf("body: a prev_profile part: this client's version is not supported; update github.com/grafana/pyroscope-go")
		case partSampleTypeConfig:
			data, err := pprofproto.ReadAll(part, -1, q)
			if err != nil {
				return formError(partSampleTypeConfig, err)
			}
			if err := json.Unmarshal(data, &req.sampleTypeConfig); err != nil {
				return invalidf("body: sample_type_config: %v", err)
			}
		}
	}
	if req.Profile == nil {
		return invalidf("body: the form has no profile part")
	}
	return nil
}

// formError explains a failure to read a part of the form.
func formError(part string, err error) error {
	if errors.Is(err, pprofproto.ErrTooLarge) {
		return &kindError{msg: "body: " + part + ": over the memory budget", kind: ErrBusy, cause: err}
	}
	return invalidf("body: %s: %v", part, err)
}

// parseTime reads a from or until parameter as Pyroscope does: Unix time
// in seconds, or in milliseconds, microseconds or nanoseconds when it has
// 13, 16 or 19 digits; else what store.ParseTime takes (now, now-1h, -1h,
// RFC 3339). The empty string is the zero time.
func parseTime(param, s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if strings.Trim(s, "0123456789") == "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, invalidf("%s %q: out of range", param, clip(s))
		}
		switch len(s) {
		case 13:
			return time.UnixMilli(v), nil
		case 16:
			return time.UnixMicro(v), nil
		case 19:
			return time.Unix(0, v), nil
		}
	}
	t, err := store.ParseTime(s, now)
	if err != nil {
		return time.Time{}, invalidf("%s: %v", param, err)
	}
	return t, nil
}
