package bench

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseGate(t *testing.T) {
	tests := []struct {
		expr string
		want []Limit
		err  string
	}{
		{expr: "sec/op>+5%", want: []Limit{{Unit: "sec/op", Above: true, Relative: true, Value: 0.05}}},
		{expr: "ns/op>+5%", want: []Limit{{Unit: "sec/op", Above: true, Relative: true, Value: 0.05}}},
		{expr: "ns/op>100", want: []Limit{{Unit: "sec/op", Above: true, Value: 100e-9}}},
		{expr: "MB/s<-10%", want: []Limit{{Unit: "B/s", Relative: true, Value: -0.10}}},
		{expr: " sec/op > +5 % , allocs/op>0", want: []Limit{
			{Unit: "sec/op", Above: true, Relative: true, Value: 0.05},
			{Unit: "allocs/op", Above: true, Value: 0},
		}},
		{expr: "widgets/op<3", want: []Limit{{Unit: "widgets/op", Value: 3}}},
		{expr: "", err: "empty limit"},
		{expr: "sec/op>5%,", err: "empty limit"},
		{expr: "sec/op", err: "want UNIT>CHANGE"},
		{expr: ">5%", err: "bad unit"},
		{expr: "sec/op>", err: "bad number"},
		{expr: "sec/op>5%%", err: "bad number"},
		{expr: "sec/op>NaN", err: "bad number"},
		{expr: "sec/op>0x10", err: "bad number"},
		{expr: "sec op>1", err: "bad unit"},
	}
	for _, tt := range tests {
		g, err := ParseGate(tt.expr)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseGate(%q) = %v, %v; want error containing %q", tt.expr, g, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseGate(%q): %v", tt.expr, err)
			continue
		}
		if len(g.Limits) != len(tt.want) {
			t.Fatalf("ParseGate(%q) = %+v, want %+v", tt.expr, g.Limits, tt.want)
		}
		for i, l := range g.Limits {
			w := tt.want[i]
			if l.Unit != w.Unit || l.Above != w.Above || l.Relative != w.Relative || math.Abs(l.Value-w.Value) > 1e-15 {
				t.Errorf("ParseGate(%q)[%d] = %+v, want %+v", tt.expr, i, l, w)
			}
		}
	}
}

func TestLimitCrossed(t *testing.T) {
	up5, _ := parseLimit("sec/op>+5%")
	down10, _ := parseLimit("B/s<-10%")
	allocs, _ := parseLimit("allocs/op>0")
	tests := []struct {
		l        Limit
		old, new float64
		want     bool
	}{
		{up5, 100, 106, true},
		{up5, 100, 105, false},
		{up5, 100, 50, false},
		{up5, 0, 1, true},
		{up5, 0, 0, false},
		{down10, 100, 89, true},
		{down10, 100, 91, false},
		{allocs, 2, 3, true},
		{allocs, 3, 3, false},
		{allocs, 3, 2, false},
	}
	for _, tt := range tests {
		if got := tt.l.crossed(tt.old, tt.new); got != tt.want {
			t.Errorf("%s crossed(%v, %v) = %v, want %v", tt.l.Text, tt.old, tt.new, got, tt.want)
		}
	}
}

// FuzzParseGate checks that any expression either parses into limits that
// hold finite values and known units or fails with a message naming it.
func FuzzParseGate(f *testing.F) {
	for _, s := range []string{"sec/op>+5%", "allocs/op>0", "ns/op>+5%,B/op>1024", "MB/s<-10%", "x<>y", ",,", "%", ">-%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		g, err := ParseGate(expr)
		if err != nil {
			if g != nil {
				t.Fatalf("ParseGate(%q) returned a gate and an error", expr)
			}
			return
		}
		if len(g.Limits) == 0 {
			t.Fatalf("ParseGate(%q) = no limits, no error", expr)
		}
		for _, l := range g.Limits {
			if l.Unit == "" || math.IsNaN(l.Value) || math.IsInf(l.Value, 0) {
				t.Fatalf("ParseGate(%q): bad limit %+v", expr, l)
			}
			_ = l.crossed(1, 2)
		}
	})
}

// TestGateCheckUnits checks that a limit on a unit the results lack is
// refused, naming the units present, while the aliases benchfmt tidies
// ("ns/op", "MB/s") match the units they stand for.
func TestGateCheckUnits(t *testing.T) {
	const input = "BenchmarkX 100 5 ns/op 3 B/op 1 allocs/op 20 MB/s\nBenchmarkX 100 6 ns/op 3 B/op 1 allocs/op 21 MB/s\n"
	tests := []struct {
		filter, gate string
		err          string
	}{
		{"*", "sec/op>5%,ns/op>5%,MB/s<-1%,B/s<-1%,MB/op>0,allocs/op>0", ""},
		{"*", "allocs>0", `unit "allocs" is not in the input; units present: sec/op, B/op, allocs/op, B/s`},
		{"*", "sec/op>5%,ns/item>1", `unit "ns/item" is not in the input; units present: sec/op, B/op, allocs/op, B/s`},
		{".unit:sec/op", "ns/op>5%,B/op>0", `unit "B/op" is not in the results -filter keeps; units present: sec/op`},
		{".name:Y", "ns/op>5%", `unit "ns/op" is not in the results -filter keeps; units present: none`},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Filter = tt.filter
		b, err := NewBuilder(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Read(Arg{Path: "x.txt", Label: "x.txt"}, strings.NewReader(input), func(err error) { t.Error(err) }); err != nil {
			t.Fatal(err)
		}
		g, err := ParseGate(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		err = g.CheckUnits(b.Tables(), b.InputUnits())
		var ue *UnitError
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("-filter %s -fail-on %s: %v", tt.filter, tt.gate, err)
		case tt.err != "" && (!errors.As(err, &ue) || err.Error() != tt.err):
			t.Errorf("-filter %s -fail-on %s: error %v, want %q", tt.filter, tt.gate, err, tt.err)
		}
	}
}

// TestBuilderErrorsKeepTheirChain: a bad -filter or projection names the
// flag and wraps benchproc's syntax error, for errors.As.
func TestBuilderErrorsKeepTheirChain(t *testing.T) {
	for _, cfg := range []Config{{Filter: "("}, {Filter: "*", Row: ".name@nosuchorder"}} {
		_, err := NewBuilder(cfg)
		if err == nil || !strings.HasPrefix(err.Error(), "parsing -") || errors.Unwrap(err) == nil {
			t.Errorf("NewBuilder(%+v) = %v (cause %v); want a wrapped benchproc error", cfg, err, errors.Unwrap(err))
		}
	}
}
