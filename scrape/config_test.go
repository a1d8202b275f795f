package scrape

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParseConfig reads a configuration with every setting and checks
// the jobs and the targets it gives.
func TestParseConfig(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "token"), []byte("tok-from-file\n"), 0o600)
	os.MkdirAll(filepath.Join(dir, "targets"), 0o755)
	os.WriteFile(filepath.Join(dir, "targets", "a.yaml"), []byte("- targets: [10.0.0.1:6060]\n  labels: {zone: b}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "targets", "b.json"), []byte(`[{"targets": ["10.0.0.2:6060"]}]`), 0o644)
	cfg, err := ParseConfig([]byte(`
scrape_configs:
  - job_name: api
    scrape_interval: 10s
    scrape_timeout: 5s
    profiles: [cpu, heap, allocs, mutex]
    authorization: {type: Bearer, credentials_file: token}
    headers: {X-Tenant: a}
    static_configs:
      - targets: [127.0.0.1:6060, "https://db.internal:8443/base"]
        labels: {env: prod}
    file_sd_configs:
      - files: [targets/*.yaml, targets/*.json]
        refresh_interval: 30s
  - job_name: db
    bearer_token: tok2
`), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 2 {
		t.Fatalf("%d jobs", len(cfg.Jobs))
	}
	api, db := cfg.Jobs[0], cfg.Jobs[1]
	if api.Interval != 10*time.Second || api.Timeout != 5*time.Second || api.Token != "tok-from-file" || api.Header.Get("X-Tenant") != "a" || api.RefreshInterval != 30*time.Second {
		t.Errorf("api job: %+v", api)
	}
	if got := plan(api.Kinds); len(got) != 3 || got[1].name != "memory" || !got[1].cumulative || !got[0].timed {
		t.Errorf("api fetches: %+v, want cpu, one memory fetch, mutex", got)
	}
	if db.Interval != DefaultInterval || db.Timeout != DefaultInterval || db.Token != "tok2" || len(db.Kinds) != 3 {
		t.Errorf("db job defaults: %+v", db)
	}
	ts, err := api.targets()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range ts {
		got = append(got, tg.base+" "+tg.labels.String())
	}
	want := []string{
		`http://127.0.0.1:6060/debug/pprof/ {env="prod", instance="127.0.0.1:6060", service_name="api"}`,
		`https://db.internal:8443/base/debug/pprof/ {env="prod", instance="https://db.internal:8443/base", service_name="api"}`,
		`http://10.0.0.1:6060/debug/pprof/ {instance="10.0.0.1:6060", service_name="api", zone="b"}`,
		`http://10.0.0.2:6060/debug/pprof/ {instance="10.0.0.2:6060", service_name="api"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("targets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseConfigErrors checks that a bad configuration is refused with
// one line that names the problem.
func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, err string }{
		{"scrape_configs:\n  - job_name: a\n    scrape_intervl: 1s\n", "field scrape_intervl not found"},
		{"scrape_configs:\n  - scrape_interval: 1s\n", "job_name missing"},
		{"scrape_configs:\n  - job_name: a\n  - job_name: a\n", "named twice"},
		{"scrape_configs:\n  - job_name: a\n    scrape_interval: 100ms\n", "under the minimum"},
		{"scrape_configs:\n  - job_name: a\n    scrape_interval: 10s\n    scrape_timeout: 20s\n", "at most scrape_interval"},
		{"scrape_configs:\n  - job_name: a\n    profiles: [cpu, trace]\n", `unknown kind "trace"`},
		{"scrape_configs:\n  - job_name: a\n    static_configs: [{targets: ['host']}]\n", `target "host"`},
		{"scrape_configs:\n  - job_name: a\n    static_configs: [{targets: ['h:1'], labels: {instance: x}}]\n", "set by the scraper"},
		{"scrape_configs:\n  - job_name: a\n    authorization: {type: Basic}\n", "only Bearer"},
		{"scrape_configs:\n  - job_name: a\n    scheme: ftp\n", `scheme "ftp"`},
		{"scrape_configs: [", "yaml"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseConfig(%q) = %v, want one line with %q", tc.yaml, err, tc.err)
		}
	}
}

// TestParseSpec reads -scrape flags into jobs of the default settings.
func TestParseSpec(t *testing.T) {
	j, err := ParseSpec("api=127.0.0.1:6060, 127.0.0.1:6061")
	if err != nil {
		t.Fatal(err)
	}
	if j.Name != "api" || len(j.Static) != 1 || len(j.Static[0].Targets) != 2 || j.Interval != DefaultInterval || len(j.Kinds) != 3 {
		t.Errorf("ParseSpec = %+v", j)
	}
	var cfg Config
	if err := cfg.Add(j); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Add(j); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("adding a job twice: %v", err)
	}
	for _, s := range []string{"api", "=h:1", "api=", "api=nohost"} {
		if _, err := ParseSpec(s); err == nil {
			t.Errorf("ParseSpec(%q) gave no error", s)
		}
	}
}

// FuzzParseConfig checks that any configuration is read or refused with
// one line, and that what is read passes its own checks.
func FuzzParseConfig(f *testing.F) {
	f.Add("scrape_configs:\n  - job_name: api\n    scrape_interval: 15s\n    profiles: [cpu, allocs]\n    static_configs: [{targets: ['127.0.0.1:6060'], labels: {env: prod}}]\n")
	f.Add("scrape_configs:\n  - job_name: a\n    bearer_token: x\n    headers: {X: y}\n    file_sd_configs: [{files: [t/*.json], refresh_interval: 2m}]\n")
	f.Add("scrape_configs: [{job_name: b, scheme: https, path_prefix: /p, scrape_timeout: 1s, scrape_interval: 1s}]")
	f.Fuzz(func(t *testing.T, s string) {
		cfg, err := ParseConfig([]byte(s), t.TempDir())
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of two lines: %q", err)
			}
			return
		}
		if err := cfg.check(); err != nil {
			t.Fatalf("a configuration read fails its check: %v", err)
		}
	})
}
