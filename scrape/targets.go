package scrape

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/perflab/perflab/store"
)

// LabelInstance is the label that holds a target's address.
const LabelInstance = "instance"

// A target is one address of one job, with its series' labels (less
// __name__, which each kind sets).
type target struct {
	job    *Job
	addr   string
	base   string // the URL the profiles' paths are joined to
	labels store.Labels
}

// key names a target among the running ones: its job and its labels.
func (t *target) key() string { return t.job.Name + "\x00" + t.labels.String() }

// targetURL returns the base URL of the profiles of addr: addr itself if
// it is a URL, else scheme://addr.
func targetURL(scheme, addr string) (*url.URL, error) {
	raw := addr
	if !strings.Contains(addr, "://") {
		raw = scheme + "://" + addr
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("target %q: want host:port or an http(s) URL", clip(addr))
	}
	if _, _, err := net.SplitHostPort(u.Host); err != nil && !strings.Contains(addr, "://") {
		return nil, fmt.Errorf("target %q: want host:port or an http(s) URL", clip(addr))
	}
	return u, nil
}

// targets returns the job's targets: its static ones and those its
// files list now. A file that cannot be read is an error; its targets
// are then those read last time (the caller keeps them).
func (j *Job) targets() ([]*target, error) {
	groups := slices.Clone(j.Static)
	var firstErr error
	for _, pattern := range j.Files {
		names, err := filepath.Glob(pattern)
		if err != nil {
			return nil, fmt.Errorf("file_sd_configs: %q: %w", pattern, err)
		}
		for _, name := range names {
			gs, err := readTargetFile(name)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			groups = append(groups, gs...)
		}
	}
	var ts []*target
	for _, g := range groups {
		for _, addr := range g.Targets {
			t, err := j.newTarget(addr, g.Labels)
			if err != nil {
				return nil, err
			}
			ts = append(ts, t)
		}
	}
	return ts, firstErr
}

// newTarget returns the target addr of the job, with its labels.
func (j *Job) newTarget(addr string, labels map[string]string) (*target, error) {
	u, err := targetURL(j.Scheme, addr)
	if err != nil {
		return nil, err
	}
	ls := store.NewLabels(store.LabelService, j.Name, LabelInstance, addr)
	for k, v := range labels {
		if k != store.LabelService && k != LabelInstance && k != store.LabelName {
			ls = ls.With(k, v)
		}
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + j.PathPrefix
	return &target{job: j, addr: addr, base: u.String(), labels: ls}, nil
}

// readTargetFile reads a file_sd_configs file: a JSON or YAML list of
// target groups.
func readTargetFile(name string) ([]TargetGroup, error) {
	data, err := readSmall(name)
	if err != nil {
		return nil, fmt.Errorf("file_sd_configs: %w", err)
	}
	var gs []TargetGroup
	if strings.HasSuffix(name, ".json") {
		err = json.Unmarshal(data, &gs)
	} else {
		err = yaml.Unmarshal(data, &gs)
	}
	if err != nil {
		return nil, fmt.Errorf("file_sd_configs: %s: %w", name, yamlError(err))
	}
	for _, g := range gs {
		if err := g.check(); err != nil {
			return nil, fmt.Errorf("file_sd_configs: %s: %w", name, err)
		}
	}
	return gs, nil
}
