package demo

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/perflab/perflab/internal/units"
	"github.com/perflab/perflab/investigate"
	"github.com/perflab/perflab/loadgen"
)

// RSSOptions configure RSSSearch.
type RSSOptions struct {
	// Dir receives the two runs' directories, naive and tuned; "" means
	// a new temporary directory.
	Dir string
	// Server is the command that runs the rsssearch service, given the
	// service's flags after it (-variant, -addr, -debug-addr): perflab
	// itself runs it as "perflab demo rsssearch -serve".
	Server []string
	// Load is how long each variant is loaded; 0 means DefaultRSSLoad.
	Load time.Duration
	// Progress is told what the demo is doing, as in Options.
	Progress func(status string)
	// Investigate, if not nil, adjusts the options of each run (a flame
	// graph, a trace summary) before it starts.
	Investigate func(*investigate.Options)
}

// DefaultRSSLoad keeps the whole demo, both variants, under a minute.
const DefaultRSSLoad = 10 * time.Second

// RSSResult holds the two runs.
type RSSResult struct {
	Dir          string
	Naive, Tuned *investigate.Report
}

// RSSSearch runs the Ultimate Go article's RSS search case study: the
// naive service under perflab investigate, then the tuned one with the naive run
// as its base, and prints the two headlines side by side as the article
// tells them.
func RSSSearch(ctx context.Context, w io.Writer, o RSSOptions) (*RSSResult, error) {
	if len(o.Server) == 0 {
		return nil, fmt.Errorf("rsssearch demo: no server command")
	}
	if o.Load <= 0 {
		o.Load = DefaultRSSLoad
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
	if o.Dir == "" {
		d, err := os.MkdirTemp("", "perflab-rsssearch-")
		if err != nil {
			return nil, err
		}
		o.Dir = d
	}
	res := &RSSResult{Dir: o.Dir}
	fmt.Fprintf(w, "The RSS search service of the Ultimate Go article, under perflab investigate: POST /search?term=covid-19&cnn=on&bbc=on&nyt=on\nfrom 16 connections for %v per variant; reports in %s\n\n", o.Load, o.Dir)
	for _, v := range []string{"naive", "tuned"} {
		opts, err := o.runOptions(v)
		if err != nil {
			return nil, err
		}
		rep, err := investigate.Run(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("rsssearch demo, %s: %w", v, err)
		}
		fmt.Fprintf(w, "%s: %s\n", v, rep.Headline)
		if v == "naive" {
			res.Naive = rep
		} else {
			res.Tuned = rep
		}
	}
	writeRSSStory(w, res)
	return res, nil
}

func (o *RSSOptions) runOptions(variant string) (investigate.Options, error) {
	port, err := freePort()
	if err != nil {
		return investigate.Options{}, err
	}
	debug, err := freePort()
	if err != nil {
		return investigate.Options{}, err
	}
	opts := investigate.Options{
		Program: o.Server[0],
		Args:    append(o.Server[1:len(o.Server):len(o.Server)], "-variant="+variant, "-addr=127.0.0.1:"+port, "-debug-addr=127.0.0.1:"+debug),
		URLs:    []string{"http://127.0.0.1:" + port + "/search?term=covid-19&cnn=on&bbc=on&nyt=on"},
		Pprof:   "http://127.0.0.1:" + debug + "/debug/pprof/",
		Load:    loadgen.Config{Method: "POST", C: 16, Duration: o.Load, Timeout: 20 * time.Second},
		Dir:     filepath.Join(o.Dir, variant),
		Progress: func(s string) {
			if s != "" {
				s = variant + ": " + s
			}
			o.Progress(s)
		},
	}
	if variant == "tuned" {
		opts.Base = filepath.Join(o.Dir, "naive")
	}
	if o.Investigate != nil {
		o.Investigate(&opts)
	}
	return opts, nil
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), nil
}

// writeRSSStory prints the two runs side by side and what the naive run's
// first allocation finding says.
func writeRSSStory(w io.Writer, r *RSSResult) {
	n, t := r.Naive, r.Tuned
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\tnaive\ttuned\t\n")
	row := func(name, a, b string) { fmt.Fprintf(tw, "%s\t%s\t%s\t\n", name, a, b) }
	row("requests/s", fmt.Sprintf("%.0f", n.RPS), fmt.Sprintf("%.0f", t.RPS))
	row("latency p50", units.Seconds(n.Latency.P50), units.Seconds(t.Latency.P50))
	row("latency p99", units.Seconds(n.Latency.P99), units.Seconds(t.Latency.P99))
	row("bytes allocated per request", units.Bytes(int64(n.AllocBytesPerRequest)), units.Bytes(int64(t.AllocBytesPerRequest)))
	row("objects allocated per request", fmt.Sprintf("%.0f", n.AllocsPerRequest), fmt.Sprintf("%.0f", t.AllocsPerRequest))
	row("GCs per 1000 requests", fmt.Sprintf("%.1f", n.GC.CyclesPer1000), fmt.Sprintf("%.1f", t.GC.CyclesPer1000))
	row("CPU in GC", fmt.Sprintf("%.1f%%", n.GC.CPUPercent), fmt.Sprintf("%.1f%%", t.GC.CPUPercent))
	tw.Flush()
	fmt.Fprintln(w)
	for _, f := range n.Findings {
		if f.Kind == "alloc" {
			fmt.Fprintf(w, "The naive run's biggest allocation finding: %s.\n", f.Title)
			break
		}
	}
	fmt.Fprintf(w, "The tuned service lowers each description once, when the feed is cached, and the term once per request,\n"+
		"and escapes each description once too: %s fewer bytes per request, %s fewer GCs per 1000 requests.\n",
		times(n.AllocBytesPerRequest, t.AllocBytesPerRequest), times(n.GC.CyclesPer1000, t.GC.CyclesPer1000))
	if b := t.Base; b != nil && b.RPS.Text != "" {
		fmt.Fprintf(w, "Throughput over %d rounds each: %s (p=%.3f).\n", len(t.Rounds), b.RPS.Text, pValue(b.RPS.P))
	}
	fmt.Fprintf(w, "\nReports: %s and %s\n", filepath.Join(r.Dir, "naive", "report.html"), filepath.Join(r.Dir, "tuned", "report.html"))
}

func pValue(p *float64) float64 {
	if p == nil {
		return 1
	}
	return *p
}
