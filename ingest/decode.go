package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/store"
)

// decode decodes one pushed profile (what names it in messages), taking
// the memory it needs from res first: the inflated bytes and the copy
// gunzip may make while joining its chunks, then what package profiles
// estimates the decoded profile takes. It is package profiles' budgeted
// decoder, given as its budget the size the gzip trailer announces
// (within Options.MaxProfileBytes): a gzip bomb is cut there. The profile
// is valid (profile.CheckValid passes) and within the store's sample
// limit.
func (h *Handler) decode(res *reservation, what string, data []byte) (*profile.Profile, error) {
	limit := h.opts.MaxProfileBytes
	raw, zipped := int64(len(data)), pprofproto.IsGzip(data)
	if zipped && len(data) >= 18 { // a gzip header and trailer
		isize := int64(binary.LittleEndian.Uint32(data[len(data)-4:]))
		raw = min(limit, isize+isize/4+4096)
		if err := res.take(2 * raw); err != nil {
			return nil, err
		}
	}
	if !zipped && raw > limit {
		return nil, tooLargef("%s: %d bytes, more than the limit of %d per profile", what, raw, limit)
	}
	reserve := func(n int64) error {
		if n > h.mem.limit {
			return tooLargef("decoding would take about %d bytes, more than the whole memory budget of %d", n, h.mem.limit)
		}
		return res.take(n)
	}
	p, err := profiles.ParseData(what, data, profiles.Options{MaxBytes: limit, Budget: profiles.NewBudget(raw), Reserve: reserve})
	if err != nil {
		return nil, decodeError(what, err, raw == limit, limit)
	}
	if len(p.SampleType) == 0 {
		return nil, invalidf("%s: no sample types", what)
	}
	if max := h.opts.Limits.MaxProfileSamples; len(p.Sample) > max {
		return nil, fmt.Errorf("%s: %d samples, more than the limit of %d per profile: %w", what, len(p.Sample), max, store.ErrLimit)
	}
	return p, nil
}

// decodeError explains why package profiles could not decode a pushed
// profile. A profile that inflates beyond its budget is over the limit
// when the budget was the limit (atLimit), else its gzip trailer lied.
func decodeError(what string, err error, atLimit bool, limit int64) error {
	switch {
	case errors.Is(err, ErrBusy), errors.Is(err, ErrTooLarge):
		return err
	case errors.Is(err, profiles.ErrTooLarge) && strings.Contains(err.Error(), "decoding would take"):
		return &kindError{msg: sprintf("%s: decoding would take more than %d times the limit of %d bytes per profile", what, 4, limit), kind: ErrTooLarge, cause: err}
	case errors.Is(err, profiles.ErrTooLarge) && atLimit:
		return &kindError{msg: sprintf("%s: inflates to more than %d bytes, the limit per profile", what, limit), kind: ErrTooLarge, cause: err}
	case errors.Is(err, profiles.ErrTooLarge):
		return &kindError{msg: sprintf("%s: corrupt gzip data: inflates to more than its trailer says", what), kind: ErrInvalid, cause: err}
	}
	return &kindError{msg: oneLine(err.Error()), kind: ErrInvalid, cause: err}
}
