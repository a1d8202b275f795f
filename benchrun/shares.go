package benchrun

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/google/pprof/profile"
)

// Shares maps a function name to its share of a profile's total flat
// value, between 0 and 1.
type Shares map[string]float64

// FlatShares returns each function's share of the profile's flat value,
// counting a sample against the innermost function of its leaf location.
// It measures the value named sampleType ("cpu", "alloc_space", ...), or
// the profile's last sample type when sampleType is "" or absent.
func FlatShares(p *profile.Profile, sampleType string) Shares {
	idx := len(p.SampleType) - 1
	for i, st := range p.SampleType {
		if st.Type == sampleType {
			idx = i
		}
	}
	shares := make(Shares)
	if idx < 0 {
		return shares
	}
	var total float64
	for _, s := range p.Sample {
		if idx >= len(s.Value) {
			continue
		}
		v := float64(s.Value[idx])
		total += v
		name := "?"
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 && s.Location[0].Line[0].Function != nil {
			name = s.Location[0].Line[0].Function.Name
		} else if len(s.Location) > 0 {
			name = fmt.Sprintf("%#x", s.Location[0].Address)
		}
		shares[name] += v
	}
	if total == 0 {
		return Shares{}
	}
	for k := range shares {
		shares[k] /= total
	}
	return shares
}

// A ShareChange is a function whose share of a profile changed.
type ShareChange struct {
	Func     string
	Old, New float64
}

// CompareShares returns the n functions whose shares changed most between
// old and new, largest change first (ties by name).
func CompareShares(old, new Shares, n int) []ShareChange {
	var out []ShareChange
	for f, v := range old {
		out = append(out, ShareChange{f, v, new[f]})
	}
	for f, v := range new {
		if _, ok := old[f]; !ok {
			out = append(out, ShareChange{f, 0, v})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := math.Abs(out[i].New-out[i].Old), math.Abs(out[j].New-out[j].Old)
		if di != dj {
			return di > dj
		}
		return out[i].Func < out[j].Func
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// WriteShareChanges prints changes as a table headed by title.
func WriteShareChanges(w io.Writer, title string, changes []ShareChange) error {
	if _, err := fmt.Fprintf(w, "%s\n%7s %7s %8s  %s\n", title, "old", "new", "delta", "function"); err != nil {
		return err
	}
	for _, c := range changes {
		if _, err := fmt.Fprintf(w, "%6.1f%% %6.1f%% %+7.1f%%  %s\n", c.Old*100, c.New*100, (c.New-c.Old)*100, c.Func); err != nil {
			return err
		}
	}
	return nil
}
