package bench

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

// A Config says how results are selected, grouped and compared. Its
// fields have benchstat's flag names and meanings.
type Config struct {
	// Table, Row and Col are benchproc projections that split results into
	// tables, rows and columns; Ignore lists keys to ignore when grouping.
	Table, Row, Col, Ignore string
	// Filter is a benchproc filter query; "*" keeps everything.
	Filter string
	// Alpha is the significance level of comparisons, in [0, 1].
	Alpha float64
	// Confidence is the level of the intervals around medians, in [0, 1].
	Confidence float64
}

// DefaultConfig returns benchstat's defaults: a table per configuration and
// unit, a row per full benchmark name, a column per input file, α = 0.05 and
// 95% confidence intervals.
func DefaultConfig() Config {
	return Config{
		Table:      ".config",
		Row:        ".fullname",
		Col:        ".file",
		Filter:     "*",
		Alpha:      benchmath.DefaultThresholds.CompareAlpha,
		Confidence: 0.95,
	}
}

// A Builder collects benchmark results into cells of tables; Tables then
// computes their statistics.
type Builder struct {
	cfg                   Config
	filter                *benchproc.Filter
	tableBy, rowBy, colBy *benchproc.Projection
	residue               *benchproc.Projection
	unitField             *benchproc.Field

	reader benchfmt.Reader
	lines  int
	tables map[benchproc.Key]*pending
	// units lists the units of the results read, before filtering, in
	// order of first appearance; seenUnit is its set.
	units    []string
	seenUnit map[string]bool
	budget   keyBudget
}

// pending is a table under construction.
type pending struct {
	rows, cols map[benchproc.Key]bool
	cells      map[CellKey]*pendingCell
}

type pendingCell struct {
	values  []float64
	residue map[benchproc.Key]bool // residue keys seen, to warn of mixed cells
}

// NewBuilder checks cfg and returns an empty Builder. Its errors name the
// setting at fault, as in "parsing -row: ...".
func NewBuilder(cfg Config) (*Builder, error) {
	if cfg.Alpha < 0 || cfg.Alpha > 1 {
		return nil, errors.New("-alpha must be in range [0, 1]")
	}
	if cfg.Confidence < 0 || cfg.Confidence > 1 {
		return nil, errors.New("-confidence must be in range [0, 1]")
	}
	filter, err := benchproc.NewFilter(cfg.Filter)
	if err != nil {
		return nil, fmt.Errorf("parsing -filter: %w", err)
	}
	b := &Builder{cfg: cfg, filter: filter, tables: make(map[benchproc.Key]*pending), seenUnit: make(map[string]bool)}
	var p benchproc.ProjectionParser
	if b.tableBy, b.unitField, err = p.ParseWithUnit(cfg.Table, filter); err != nil {
		return nil, fmt.Errorf("parsing -table: %w", err)
	}
	if b.rowBy, err = p.Parse(cfg.Row, filter); err != nil {
		return nil, fmt.Errorf("parsing -row: %w", err)
	}
	if b.colBy, err = p.Parse(cfg.Col, filter); err != nil {
		return nil, fmt.Errorf("parsing -col: %w", err)
	}
	if _, err = p.Parse(cfg.Ignore, filter); err != nil {
		return nil, fmt.Errorf("parsing -ignore: %w", err)
	}
	b.residue = p.Residue()
	return b, nil
}

// Add adds every value of result to the cell its keys select, one table
// per unit.
func (b *Builder) Add(result *benchfmt.Result) {
	tableKeys := b.tableBy.ProjectValues(result)
	ck := CellKey{Row: b.rowBy.Project(result), Col: b.colBy.Project(result)}
	residue := b.residue.Project(result)
	for i, tk := range tableKeys {
		t := b.tables[tk]
		if t == nil {
			t = &pending{
				rows:  make(map[benchproc.Key]bool),
				cols:  make(map[benchproc.Key]bool),
				cells: make(map[CellKey]*pendingCell),
			}
			b.tables[tk] = t
		}
		c := t.cells[ck]
		if c == nil {
			c = &pendingCell{residue: make(map[benchproc.Key]bool)}
			t.cells[ck] = c
			t.rows[ck.Row] = true
			t.cols[ck.Col] = true
		}
		c.values = append(c.values, result.Values[i].Value)
		c.residue[residue] = true
	}
}

// Tables computes the statistics of every table: a summary per cell, a
// comparison of each cell with the first column of its row, and a geomean
// per column.
func (b *Builder) Tables() *Tables {
	keys := sortedKeys(b.tables)
	thresholds := benchmath.DefaultThresholds
	thresholds.CompareAlpha = b.cfg.Alpha
	units := b.reader.Units()
	out := &Tables{Keys: keys}
	type job struct {
		t  *Table
		c  *Cell
		pc *pendingCell
	}
	var jobs []job
	for _, k := range keys {
		p := b.tables[k]
		unit := k.Get(b.unitField)
		t := &Table{
			Unit:       unit,
			Assumption: units.GetAssumption(unit),
			Better:     units.GetBetter(unit),
			Rows:       sortedKeys(p.rows),
			Cols:       sortedKeys(p.cols),
			Cells:      make(map[CellKey]*Cell, len(p.cells)),
		}
		for ck, pc := range p.cells {
			vals := append([]float64(nil), pc.values...)
			t.Cells[ck] = &Cell{Sample: benchmath.NewSample(vals, &thresholds)}
		}
		base := t.Cols[0]
		for ck, pc := range p.cells {
			c := t.Cells[ck]
			if ck.Col != base {
				c.Baseline = t.Cells[CellKey{ck.Row, base}]
			}
			jobs = append(jobs, job{t, c, pc})
		}
		out.Tables = append(out.Tables, t)
	}
	// The U-test dominates the cost; cells are independent, so spread
	// them over the CPUs.
	parallel(len(jobs), func(i int) { jobs[i].t.summarize(jobs[i].c, jobs[i].pc, b.cfg.Confidence) })
	for _, t := range out.Tables {
		t.summarizeColumns()
	}
	return out
}

// parallel calls f(0) ... f(n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// summarize fills in c's summary and comparison and warns when the cell
// mixes results that differ in keys no projection shows.
func (t *Table) summarize(c *Cell, pc *pendingCell, confidence float64) {
	c.Summary = t.Assumption.Summary(c.Sample, confidence)
	if c.Baseline != nil {
		c.Comparison = t.Assumption.Compare(c.Baseline.Sample, c.Sample)
	}
	fields := benchproc.NonSingularFields(sortedKeys(pc.residue))
	if len(fields) == 0 {
		return
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	c.Sample.Warnings = append(c.Sample.Warnings,
		errors.New("benchmarks vary in "+strings.Join(names, ", ")))
}

// sortedKeys returns the keys of m in benchproc's order: first seen first,
// unless the projection asks for another order.
func sortedKeys[V any](m map[benchproc.Key]V) []benchproc.Key {
	keys := make([]benchproc.Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	benchproc.SortKeys(keys)
	return keys
}
