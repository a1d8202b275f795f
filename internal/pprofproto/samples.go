package pprofproto

import (
	"errors"
	"runtime"
	"sync"

	"github.com/google/pprof/profile"
)

// label is a Label message as string-table indexes.
type label struct{ key, str, num, unit int64 }

// sampleDecoder holds what decoding one sample after another reuses.
type sampleDecoder struct {
	ids    []uint64
	values []uint64
	labels []label
	locs   slab[*profile.Location]
	vals   slab[int64]
	strs   slab[string]
}

// emptyStack is the Location of samples without any: ParseData gives them
// an empty, non-nil slice.
var emptyStack = make([]*profile.Location, 0)

// samples decodes every Sample message into one array, resolving
// locations and labels as ParseData does. Big profiles are decoded by
// several goroutines, each on its own range of samples.
func (d *decoder) samples() error {
	// The other messages are decoded: the GC that decoding a large
	// profile's samples triggers can reclaim their lists.
	d.mappingMsgs, d.functionMsgs, d.locationMsgs, d.stringMsgs = nil, nil, nil, nil
	if len(d.p.SampleType) == 0 && len(d.sampleAt) > 0 {
		return errWire
	}
	ss := make([]profile.Sample, len(d.sampleAt))
	d.p.Sample = make([]*profile.Sample, len(ss))
	workers := min(runtime.GOMAXPROCS(0), 4, 1+len(ss)/samplesPerWorker)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(ss)/workers, (w+1)*len(ss)/workers
		wg.Go(func() { errs[w] = d.sampleRange(ss, lo, hi) })
	}
	wg.Wait()
	if len(ss) == 0 {
		d.p.Sample = nil
	}
	return errors.Join(errs...)
}

// samplesPerWorker is the fewest samples worth a goroutine of their own
// (a variable so that tests can exercise the split on small profiles).
var samplesPerWorker = 50_000

// sampleRange decodes samples lo to hi-1 into ss.
func (d *decoder) sampleRange(ss []profile.Sample, lo, hi int) error {
	n := hi - lo + 16
	// Stacks come from 2 MB chunks: each worker's last chunk is on average
	// half unused, so larger ones cost more than their fewer allocations save.
	sd := &sampleDecoder{
		locs: slab[*profile.Location]{chunk: min(n*16, 1<<18)},
		vals: slab[int64]{chunk: min(n*len(d.p.SampleType), 1<<18)},
		strs: slab[string]{chunk: 1 << 12},
	}
	for i := lo; i < hi; i++ {
		s := &ss[i]
		d.p.Sample[i] = s
		var f field
		if _, err := next(d.data, d.sampleAt[i], &f); err != nil {
			return err
		}
		if err := d.sample(sd, f.data, s); err != nil {
			return err
		}
		if len(s.Value) != len(d.p.SampleType) {
			return errWire
		}
	}
	return nil
}

// sample decodes one Sample into s.
func (d *decoder) sample(sd *sampleDecoder, data []byte, s *profile.Sample) error {
	sd.ids, sd.values, sd.labels = sd.ids[:0], sd.values[:0], sd.labels[:0]
	var f field
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		switch f.num {
		case 1:
			sd.ids, err = appendPacked(sd.ids, &f)
		case 2:
			sd.values, err = appendPacked(sd.values, &f)
		case 3:
			if f.typ != wireBytes {
				return errWire
			}
			var l label
			err = decodeLabel(f.data, &l)
			sd.labels = append(sd.labels, l)
		}
		if err != nil {
			return err
		}
	}
	s.Location = emptyStack
	if len(sd.ids) > 0 {
		s.Location = sd.locs.take(len(sd.ids))
		for i, id := range sd.ids {
			if s.Location[i] = d.location(id); s.Location[i] == nil {
				return errWire
			}
		}
	}
	if len(sd.values) > 0 {
		s.Value = sd.vals.take(len(sd.values))
		for i, v := range sd.values {
			s.Value[i] = int64(v)
		}
	}
	if len(sd.labels) > 0 {
		return d.sampleLabels(sd, s)
	}
	return nil
}

func decodeLabel(data []byte, l *label) error {
	var f field
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		if f.num >= 1 && f.num <= 4 && f.typ != wireVarint {
			return errWire
		}
		switch f.num {
		case 1:
			l.key = int64(f.u64)
		case 2:
			l.str = int64(f.u64)
		case 3:
			l.num = int64(f.u64)
		case 4:
			l.unit = int64(f.u64)
		}
	}
	return nil
}

// sampleLabels builds the Label, NumLabel and NumUnit maps exactly as
// ParseData does: a label with a string is a string label; one with a
// number or a unit is numeric; units are padded with "" to match values.
func (d *decoder) sampleLabels(sd *sampleDecoder, s *profile.Sample) error {
	var labels map[string][]string
	var numLabels map[string][]int64
	var numUnits map[string][]string
	for _, l := range sd.labels {
		key, err := d.str(l.key)
		if err != nil {
			return err
		}
		switch {
		case l.str != 0:
			value, err := d.str(l.str)
			if err != nil {
				return err
			}
			if labels == nil {
				labels = make(map[string][]string, len(sd.labels))
			}
			if vs := labels[key]; vs != nil {
				labels[key] = append(vs, value)
			} else {
				vs = sd.strs.take(1)
				vs[0] = value
				labels[key] = vs
			}
		case l.num != 0 || l.unit != 0:
			if numLabels == nil {
				numLabels = make(map[string][]int64)
				numUnits = make(map[string][]string)
			}
			values := numLabels[key]
			if l.unit != 0 {
				unit, err := d.str(l.unit)
				if err != nil {
					return err
				}
				numUnits[key] = append(pad(numUnits[key], len(values)), unit)
			}
			numLabels[key] = append(values, l.num)
		}
	}
	s.Label = labels
	if numLabels != nil {
		s.NumLabel = numLabels
		for key, units := range numUnits {
			numUnits[key] = pad(units, len(numLabels[key]))
		}
		s.NumUnit = numUnits
	}
	return nil
}

// pad appends empty strings to units until it has n of them.
func pad(units []string, n int) []string {
	for len(units) < n {
		units = append(units, "")
	}
	return units
}
