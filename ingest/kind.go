package ingest

import (
	"strings"

	"github.com/google/pprof/profile"
)

// A sampleTypeConfig is one entry of the sample_type_config part that
// Pyroscope's SDKs send with a profile: how to show a sample type. Only
// DisplayName matters here: it tells the mutex profile's contentions
// (mutex_count) from the block profile's (block_count).
type sampleTypeConfig struct {
	Units       string `json:"units,omitempty"`
	Aggregation string `json:"aggregation,omitempty"`
	DisplayName string `json:"display-name,omitempty"`
	Sampled     bool   `json:"sampled,omitempty"`
	Cumulative  bool   `json:"cumulative,omitempty"`
}

// defaultDisplayNames are the display names Pyroscope gives sample types
// when the SDK sends no sample_type_config.
var defaultDisplayNames = map[string]string{
	"samples":     "cpu",
	"goroutine":   "goroutines",
	"contentions": "mutex_count",
	"delay":       "mutex_duration",
}

// seriesName returns the __name__ of a profile pushed to /ingest, from its
// sample types as Pyroscope derives it: wall if it has a wall sample type,
// else the first sample type whose name (or display name) says cpu
// (process_cpu), alloc_ or inuse_ (memory), mutex_ (mutex), block_ (block)
// or goroutine (goroutines; goroutineleak for the leak profile). hint, the
// kind of the name's suffix, tells a block profile from a mutex profile
// when no sample_type_config does.
func seriesName(p *profile.Profile, config map[string]*sampleTypeConfig, hint string) (string, error) {
	for _, st := range p.SampleType {
		if st.Type == "wall" {
			return "wall", nil
		}
	}
	for _, st := range p.SampleType {
		name := displayName(st.Type, config, hint)
		switch {
		case strings.Contains(name, "cpu"):
			return "process_cpu", nil
		case strings.Contains(name, "alloc_"), strings.Contains(name, "inuse_"), name == "space", name == "objects":
			return "memory", nil
		case strings.Contains(name, "mutex_"):
			return "mutex", nil
		case strings.Contains(name, "block_"):
			return "block", nil
		case strings.Contains(name, "goroutineleak"), strings.Contains(name, "goroutine_leak"):
			return "goroutineleak", nil
		case strings.Contains(name, "goroutine"):
			return "goroutines", nil
		}
	}
	return "", invalidf("profile type: sample types %s are none of a kind perflab knows (cpu, memory, goroutines, mutex, block, wall, goroutineleak)", sampleTypes(p))
}

// displayName returns the name a sample type is known by: the SDK's
// display name, else Pyroscope's default one (with block for the
// contention types when the name's suffix says so), else its own.
func displayName(typ string, config map[string]*sampleTypeConfig, hint string) string {
	if c := config[typ]; c != nil && c.DisplayName != "" {
		return c.DisplayName
	}
	if hint == "block" && (typ == "contentions" || typ == "delay") {
		return "block_" + typ
	}
	if d, ok := defaultDisplayNames[typ]; ok {
		return d
	}
	return typ
}

// sampleTypes lists a profile's sample types as type/unit, for messages.
func sampleTypes(p *profile.Profile) string {
	if len(p.SampleType) == 0 {
		return "(none)"
	}
	parts := make([]string, len(p.SampleType))
	for i, st := range p.SampleType {
		parts[i] = st.Type + "/" + st.Unit
	}
	return clip(strings.Join(parts, ", "))
}
