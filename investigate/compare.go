package investigate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/bench"
	"github.com/perflab/perflab/internal/units"
)

// A Comparison is this run against an earlier one (-base).
type Comparison struct {
	Dir          string `json:"dir"`
	BaseHeadline string `json:"base_headline"`
	// RPS and MeanLatency compare the rounds of both runs with package
	// bench's statistics (median, confidence interval, Mann-Whitney U).
	RPS         Change `json:"rps"`
	MeanLatency Change `json:"mean_latency_seconds"`
	// The others compare single figures.
	P99                  Change `json:"latency_p99_seconds"`
	AllocBytesPerRequest Change `json:"alloc_bytes_per_request"`
	AllocsPerRequest     Change `json:"allocs_per_request"`
	GCCyclesPer1000      Change `json:"gc_cycles_per_1000_requests"`
	GCCPUPercent         Change `json:"gc_cpu_percent"`
	// Benchstat is bench's table of the rounds, as benchstat prints it.
	Benchstat string `json:"benchstat"`
}

// A Change is one figure before and after.
type Change struct {
	Base  float64 `json:"base"`
	New   float64 `json:"new"`
	Delta float64 `json:"delta"` // new/base - 1
	// P and Significant are set for figures measured in rounds: the
	// U-test's p-value and whether it is below bench's alpha; Text is
	// bench's verdict ("+12.25%" or "~").
	P           *float64 `json:"p,omitempty"`
	Significant *bool    `json:"significant,omitempty"`
	Text        string   `json:"text,omitempty"`
}

func change(base, new float64) Change {
	c := Change{Base: base, New: new}
	if base != 0 {
		c.Delta = new/base - 1
	}
	return c
}

// compare reads the base run's report, rounds and CPU profile.
func (r *runner) compare() {
	rep := r.rep
	var base Report
	b, err := os.ReadFile(filepath.Join(r.o.Base, "report.json"))
	if err == nil {
		err = json.Unmarshal(b, &base)
	}
	if err != nil {
		r.problem("-base %s: %v", r.o.Base, err)
		return
	}
	c := &Comparison{Dir: r.o.Base, BaseHeadline: base.Headline,
		RPS: change(base.RPS, rep.RPS), P99: change(base.Latency.P99, rep.Latency.P99),
		AllocBytesPerRequest: change(base.AllocBytesPerRequest, rep.AllocBytesPerRequest),
		AllocsPerRequest:     change(base.AllocsPerRequest, rep.AllocsPerRequest),
		GCCyclesPer1000:      change(base.GC.CyclesPer1000, rep.GC.CyclesPer1000),
		GCCPUPercent:         change(base.GC.CPUPercent, rep.GC.CPUPercent)}
	r.benchRounds(c)
	rep.Base = c
	if cpu, err := os.ReadFile(filepath.Join(r.o.Base, "cpu.pprof")); err == nil {
		r.baseCPU, _ = profile.ParseData(cpu)
	}
}

// benchRounds compares the rounds of the two runs with package bench.
func (r *runner) benchRounds(c *Comparison) {
	old, err := os.ReadFile(filepath.Join(r.o.Base, "rounds.txt"))
	if err != nil {
		r.problem("-base: %v", err)
		return
	}
	var cur bytes.Buffer
	r.rep.writeRounds(&cur)
	b, err := bench.NewBuilder(bench.DefaultConfig())
	if err != nil {
		r.problem("-base: %v", err)
		return
	}
	warn := func(error) {}
	b.Read(bench.Arg{Path: "base", Label: "base"}, bytes.NewReader(old), warn)
	b.Read(bench.Arg{Path: "new", Label: "new"}, &cur, warn)
	tables := b.Tables()
	var text bytes.Buffer
	tables.WriteText(&text)
	c.Benchstat = text.String()
	for _, t := range tables.JSON().Tables {
		var ch *Change
		switch t.Unit {
		case "req/s":
			ch = &c.RPS
		case "sec/op":
			ch = &c.MeanLatency
		default:
			continue
		}
		if len(t.Rows) == 0 || len(t.Rows[0].Cells) < 2 || t.Rows[0].Cells[0] == nil || t.Rows[0].Cells[1] == nil {
			continue
		}
		old, new := t.Rows[0].Cells[0], t.Rows[0].Cells[1]
		if old.Center != nil && new.Center != nil {
			*ch = change(*old.Center, *new.Center)
		}
		ch.P, ch.Significant, ch.Text = new.P, new.Significant, new.DeltaText
	}
}

func (c *Comparison) writeText(w io.Writer) {
	fmt.Fprintf(w, "\nCompared with %s (%s):\n", c.Dir, c.BaseHeadline)
	for _, x := range []struct {
		name string
		c    Change
		unit func(float64) string
	}{
		{"req/s (median of rounds)", c.RPS, func(v float64) string { return fmt.Sprintf("%.0f", v) }},
		{"mean latency (median of rounds)", c.MeanLatency, units.Seconds},
		{"latency p99", c.P99, units.Seconds},
		{"bytes allocated per request", c.AllocBytesPerRequest, func(v float64) string { return units.Bytes(int64(v)) }},
		{"objects allocated per request", c.AllocsPerRequest, func(v float64) string { return fmt.Sprintf("%.1f", v) }},
		{"GCs per 1000 requests", c.GCCyclesPer1000, trim},
		{"GC CPU %", c.GCCPUPercent, func(v float64) string { return fmt.Sprintf("%.1f%%", v) }},
	} {
		verdict := fmt.Sprintf("%+.1f%%", 100*x.c.Delta)
		if x.c.Significant != nil {
			verdict = x.c.Text
			if !*x.c.Significant {
				verdict = "~ (no significant change, p=" + fmt.Sprintf("%.3f", *x.c.P) + ")"
			} else if x.c.P != nil {
				verdict += fmt.Sprintf(" (p=%.3f)", *x.c.P)
			}
		}
		fmt.Fprintf(w, "  %-32s %12s → %-12s %s\n", x.name, x.unit(x.c.Base), x.unit(x.c.New), verdict)
	}
	if c.Benchstat != "" {
		fmt.Fprintf(w, "  rounds, as benchstat compares them:\n    %s\n", strings.ReplaceAll(strings.TrimSpace(c.Benchstat), "\n", "\n    "))
	}
}
