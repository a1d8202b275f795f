package scrape

import (
	"fmt"
	"strings"
)

// ParseSpec reads a -scrape flag's value, JOB=ADDR[,ADDR...]: a job of
// the default settings (DefaultInterval, DefaultKinds, http, /debug/pprof/)
// scraping the addresses given, each host:port or a URL.
func ParseSpec(s string) (Job, error) {
	name, addrs, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return Job{}, fmt.Errorf("-scrape %q: want JOB=ADDR[,ADDR...]", clip(s))
	}
	var targets []string
	for a := range strings.SplitSeq(addrs, ",") {
		if a = strings.TrimSpace(a); a != "" {
			targets = append(targets, a)
		}
	}
	if len(targets) == 0 {
		return Job{}, fmt.Errorf("-scrape %q: no address after =", clip(s))
	}
	ks, err := kinds(nil)
	if err != nil {
		return Job{}, err
	}
	j := Job{
		Name:            strings.TrimSpace(name),
		Interval:        DefaultInterval,
		Timeout:         DefaultInterval,
		Kinds:           ks,
		Static:          []TargetGroup{{Targets: targets}},
		RefreshInterval: DefaultRefreshInterval,
	}.withDefaults()
	if err := j.check(); err != nil {
		return Job{}, fmt.Errorf("-scrape %q: %w", clip(s), err)
	}
	return j, nil
}

// Add adds jobs to c, refusing a name c already has.
func (c *Config) Add(jobs ...Job) error {
	all := Config{Jobs: append(append([]Job(nil), c.Jobs...), jobs...)}
	if err := all.check(); err != nil {
		return err
	}
	*c = all
	return nil
}
