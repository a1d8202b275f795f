package scrape

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/perflab/perflab/store"
)

// A Config is what perflab server scrapes: a list of jobs, read from a
// Prometheus-style YAML file (ParseConfig) or from -scrape specs
// (ParseSpec).
type Config struct {
	Jobs []Job
}

// A Job is one scrape_configs entry: a service whose instances are
// scraped alike.
type Job struct {
	// Name is the job's name, the service_name of its series.
	Name string
	// Interval is how often each target is scraped, and the seconds of
	// its CPU and wall-clock profiles, so that they cover its time
	// without gaps. Timeout bounds the fetch of the other kinds.
	Interval, Timeout time.Duration
	// Kinds are the profiles scraped (see store.Kinds), DefaultKinds
	// unless the job lists its own.
	Kinds []store.Kind
	// Scheme is http or https; PathPrefix the path the profiles are
	// under (/debug/pprof/, as net/http/pprof and collect serve them).
	Scheme, PathPrefix string
	// Token is sent as "Authorization: Bearer <Token>", and Header with
	// every fetch: collect's server takes its token so.
	Token  string
	Header http.Header
	// Static are the job's static_configs targets; Files the
	// file_sd_configs files (globs), read again every RefreshInterval.
	Static          []TargetGroup
	Files           []string
	RefreshInterval time.Duration
}

// A TargetGroup is a list of targets with the labels they share, as in
// static_configs and the files of file_sd_configs.
type TargetGroup struct {
	Targets []string          `yaml:"targets" json:"targets"`
	Labels  map[string]string `yaml:"labels" json:"labels"`
}

// DefaultKinds are the kinds a job scrapes unless it lists its own.
var DefaultKinds = []string{"cpu", "allocs", "goroutine"}

// The defaults of a job, as Prometheus has them where it has them.
const (
	DefaultInterval        = 15 * time.Second
	DefaultRefreshInterval = time.Minute
	DefaultPathPrefix      = "/debug/pprof/"
	minInterval            = time.Second
)

// fileConfig is the YAML file's shape.
type fileConfig struct {
	ScrapeConfigs []jobConfig `yaml:"scrape_configs"`
}

type jobConfig struct {
	JobName         string            `yaml:"job_name"`
	ScrapeInterval  string            `yaml:"scrape_interval"`
	ScrapeTimeout   string            `yaml:"scrape_timeout"`
	Scheme          string            `yaml:"scheme"`
	PathPrefix      string            `yaml:"path_prefix"`
	Profiles        []string          `yaml:"profiles"`
	Authorization   *authorization    `yaml:"authorization"`
	BearerToken     string            `yaml:"bearer_token"`
	BearerTokenFile string            `yaml:"bearer_token_file"`
	Headers         map[string]string `yaml:"headers"`
	StaticConfigs   []TargetGroup     `yaml:"static_configs"`
	FileSDConfigs   []struct {
		Files           []string `yaml:"files"`
		RefreshInterval string   `yaml:"refresh_interval"`
	} `yaml:"file_sd_configs"`
}

type authorization struct {
	Type            string `yaml:"type"`
	Credentials     string `yaml:"credentials"`
	CredentialsFile string `yaml:"credentials_file"`
}

// maxConfigBytes bounds a configuration or target file.
const maxConfigBytes = 16 << 20

// ReadConfig reads the YAML configuration file name (see ParseConfig).
func ReadConfig(name string) (Config, error) {
	data, err := readSmall(name)
	if err != nil {
		return Config{}, err
	}
	cfg, err := ParseConfig(data, filepath.Dir(name))
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// ParseConfig reads a Prometheus-style scrape configuration:
//
//	scrape_configs:
//	  - job_name: api                # the service_name label
//	    scrape_interval: 15s         # and the seconds of CPU profiles
//	    scrape_timeout: 10s          # for the other kinds
//	    profiles: [cpu, allocs, goroutine, mutex, block]
//	    authorization: {type: Bearer, credentials: TOKEN}  # or credentials_file
//	    headers: {X-Tenant: a}
//	    static_configs:
//	      - targets: [127.0.0.1:6060, 127.0.0.1:6061]  # the instance label
//	        labels: {env: prod}
//	    file_sd_configs:
//	      - files: [targets/*.yaml]  # lists of {targets, labels}, as above
//	        refresh_interval: 1m
//
// Unknown keys are errors. Relative file names are taken from dir.
func ParseConfig(data []byte, dir string) (Config, error) {
	var fc fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, yamlError(err)
	}
	var cfg Config
	for i, jc := range fc.ScrapeConfigs {
		job, err := jc.job(dir)
		if err != nil {
			return Config{}, fmt.Errorf("scrape_configs[%d] (%s): %w", i, clip(jc.JobName), err)
		}
		cfg.Jobs = append(cfg.Jobs, job)
	}
	return cfg, cfg.check()
}

// yamlError puts the YAML decoder's error on one line.
func yamlError(err error) error {
	msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
	return errors.New(strings.Replace(msg, "unmarshal errors:; ", "", 1))
}

// job checks one job's settings and fills in its defaults.
func (jc jobConfig) job(dir string) (Job, error) {
	j := Job{Name: jc.JobName, Scheme: jc.Scheme, PathPrefix: jc.PathPrefix, Header: http.Header{}}
	var err error
	if j.Interval, err = duration("scrape_interval", jc.ScrapeInterval, DefaultInterval); err != nil {
		return Job{}, err
	}
	if j.Timeout, err = duration("scrape_timeout", jc.ScrapeTimeout, j.Interval); err != nil {
		return Job{}, err
	}
	if j.Kinds, err = kinds(jc.Profiles); err != nil {
		return Job{}, err
	}
	for k, v := range jc.Headers {
		j.Header.Set(k, v)
	}
	if j.Token, err = jc.token(dir); err != nil {
		return Job{}, err
	}
	j.Static = jc.StaticConfigs
	j.RefreshInterval = DefaultRefreshInterval
	for _, sd := range jc.FileSDConfigs {
		for _, f := range sd.Files {
			if !filepath.IsAbs(f) {
				f = filepath.Join(dir, f)
			}
			j.Files = append(j.Files, f)
		}
		if j.RefreshInterval, err = duration("refresh_interval", sd.RefreshInterval, j.RefreshInterval); err != nil {
			return Job{}, err
		}
	}
	return j.withDefaults(), nil
}

// token returns the bearer token the job's settings give.
func (jc jobConfig) token(dir string) (string, error) {
	a := jc.Authorization
	switch {
	case a != nil && a.Type != "" && !strings.EqualFold(a.Type, "Bearer"):
		return "", fmt.Errorf("authorization type %q: only Bearer is supported", clip(a.Type))
	case a != nil && a.CredentialsFile != "":
		return readToken("authorization.credentials_file", a.CredentialsFile, dir)
	case a != nil:
		return a.Credentials, nil
	case jc.BearerTokenFile != "":
		return readToken("bearer_token_file", jc.BearerTokenFile, dir)
	}
	return jc.BearerToken, nil
}

// readToken reads a token from a file, without its surrounding spaces.
func readToken(key, name, dir string) (string, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	data, err := readSmall(name)
	if err != nil {
		return "", fmt.Errorf("%s: %w", key, err)
	}
	return strings.TrimSpace(string(data)), nil
}

// readSmall reads a configuration or target file of at most
// maxConfigBytes.
func readSmall(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, maxConfigBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if buf.Len() > maxConfigBytes {
		return nil, fmt.Errorf("%s: more than %d bytes", name, maxConfigBytes)
	}
	return buf.Bytes(), nil
}

// duration reads a Prometheus duration (90s, 1m, 1h30m, 2d), or returns
// def for "".
func duration(key, s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := store.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	return d, nil
}

// kinds looks up the kinds a job lists, DefaultKinds if none.
func kinds(names []string) ([]store.Kind, error) {
	if len(names) == 0 {
		names = DefaultKinds
	}
	var ks []store.Kind
	for _, name := range names {
		k, ok := store.LookupKind(name)
		if !ok {
			return nil, fmt.Errorf("profiles: unknown kind %q (want %s)", clip(name), kindNames())
		}
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks, nil
}

func kindNames() string {
	names := make([]string, len(store.Kinds))
	for i, k := range store.Kinds {
		names[i] = k.Short
	}
	return strings.Join(names, ", ")
}

// withDefaults fills in a job's unset scheme and path prefix.
func (j Job) withDefaults() Job {
	if j.Scheme == "" {
		j.Scheme = "http"
	}
	if j.PathPrefix == "" {
		j.PathPrefix = DefaultPathPrefix
	}
	if !strings.HasSuffix(j.PathPrefix, "/") {
		j.PathPrefix += "/"
	}
	if j.Header == nil {
		j.Header = http.Header{}
	}
	return j
}

// check refuses a configuration that cannot run: a job without a valid
// name, or named twice; an interval under a second; a timeout longer
// than the interval; another scheme than http or https; a target that
// is not host:port or a URL; a bad label.
func (c Config) check() error {
	seen := map[string]bool{}
	for _, j := range c.Jobs {
		if err := j.check(); err != nil {
			return fmt.Errorf("job %s: %w", clip(j.Name), err)
		}
		if seen[j.Name] {
			return fmt.Errorf("job %s: named twice", clip(j.Name))
		}
		seen[j.Name] = true
	}
	return nil
}

func (j Job) check() error {
	switch {
	case j.Name == "":
		return errors.New("job_name missing")
	case len(j.Name) > store.DefaultLimits.MaxLabelValueLength:
		return fmt.Errorf("job_name of %d bytes: over the limit of %d", len(j.Name), store.DefaultLimits.MaxLabelValueLength)
	case j.Interval < minInterval:
		return fmt.Errorf("scrape_interval %v: under the minimum of %v", j.Interval, minInterval)
	case j.Timeout <= 0 || j.Timeout > j.Interval:
		return fmt.Errorf("scrape_timeout %v: want more than 0 and at most scrape_interval (%v)", j.Timeout, j.Interval)
	case j.Scheme != "http" && j.Scheme != "https":
		return fmt.Errorf("scheme %q: want http or https", clip(j.Scheme))
	case j.RefreshInterval < minInterval:
		return fmt.Errorf("refresh_interval %v: under the minimum of %v", j.RefreshInterval, minInterval)
	}
	for _, g := range j.Static {
		if err := g.check(); err != nil {
			return fmt.Errorf("static_configs: %w", err)
		}
	}
	return nil
}

// check refuses a group with a bad target or label.
func (g TargetGroup) check() error {
	for _, t := range g.Targets {
		if _, err := targetURL("http", t); err != nil {
			return err
		}
	}
	for name, value := range g.Labels {
		if !store.ValidLabelName(name) || strings.HasPrefix(name, "__") {
			return fmt.Errorf("label name %q: not [a-zA-Z_][a-zA-Z0-9_.]*, or reserved (__)", clip(name))
		}
		if name == store.LabelService || name == store.LabelName || name == LabelInstance {
			return fmt.Errorf("label %s: set by the scraper, not by a target group", name)
		}
		if value == "" {
			return fmt.Errorf("label %s: empty value", name)
		}
	}
	return nil
}

// clip shortens s for a message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
