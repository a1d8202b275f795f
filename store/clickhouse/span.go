package clickhouse

import (
	"fmt"
	"math"
	"strings"
)

// A span is a time range [lo, hi) read from one table: whole buckets of a
// rollup (column bucket), or samples (column time).
type span struct {
	table, column string
	lo, hi        int64
}

// spans splits [lo, hi) into the whole buckets of each rollup, the widest
// first, and what is left, read from the samples: a week reads seven days
// of the daily rollup, a range of hours its hours, and the samples only at
// the ends that are not whole hours.
func spans(lo, hi int64) []span { return spansOf(lo, hi, rollups) }

// spansOf is spans with the rollups rs, the widest first.
func spansOf(lo, hi int64, rs []rollup) []span {
	if lo >= hi {
		return nil
	}
	rest := [][2]int64{{lo, hi}}
	var out []span
	for _, r := range rs {
		var next [][2]int64
		for _, rg := range rest {
			in, end := bucketIn(rg[0], r.width), bucketOut(rg[1], r.width)
			if in >= end {
				next = append(next, rg)
				continue
			}
			out = append(out, span{r.table, "bucket", in, end})
			if rg[0] < in {
				next = append(next, [2]int64{rg[0], in})
			}
			if end < rg[1] {
				next = append(next, [2]int64{end, rg[1]})
			}
		}
		rest = next
	}
	for _, rg := range rest {
		out = append(out, span{"samples", "time", rg[0], rg[1]})
	}
	return out
}

// bucketIn returns the start of the first whole bucket of width w at or
// after t, and bucketOut the end of the last one before t. Buckets before
// the first one after the epoch are never whole: ClickHouse's intDiv
// rounds toward zero, so its bucket of a time before the epoch is not w
// wide.
func bucketIn(t, w int64) int64 {
	switch {
	case t <= w:
		return w
	case t > math.MaxInt64-w:
		return math.MaxInt64 / w * w
	}
	return (t + w - 1) / w * w
}

func bucketOut(t, w int64) int64 { return max(t, 0) / w * w }

// rollupsWithin returns the rollups whose buckets each lie within one
// bucket of step: those whose width divides it.
func rollupsWithin(step int64) []rollup {
	var out []rollup
	for _, r := range rollups {
		if step%r.width == 0 {
			out = append(out, r)
		}
	}
	return out
}

// perTable returns the UNION ALL of a query of each table of ss, query
// (table, cond) with cond the condition of the table's spans.
func perTable(ss []span, query func(table, cond string) string) string {
	byTable := map[string][]string{}
	var order []string
	for _, s := range ss {
		if byTable[s.table] == nil {
			order = append(order, s.table)
		}
		byTable[s.table] = append(byTable[s.table], fmt.Sprintf("(%s >= %d AND %s < %d)", s.column, s.lo, s.column, s.hi))
	}
	var parts []string
	for _, table := range order {
		parts = append(parts, query(table, strings.Join(byTable[table], " OR ")))
	}
	return strings.Join(parts, " UNION ALL ")
}

// sumSamples returns the SQL that adds up, by layout, stack, label set and
// type, the samples of p's series whose type satisfies typeCond, in p's
// range: each span from its table, each table's spans in one
// subquery.
func sumSamples(p *pick, typeCond string) string {
	return "SELECT layout, stack, labels, type, sum(v) FROM (" + perTable(spans(p.lo, p.hi), func(table, cond string) string {
		return fmt.Sprintf("SELECT layout, stack, labels, type, sum(value) AS v FROM %s WHERE %s AND %s AND (%s) GROUP BY layout, stack, labels, type",
			table, p.seriesCond(), typeCond, cond)
	}) + ") GROUP BY layout, stack, labels, type"
}

// typesOf returns the SQL condition on the type column of the types of
// kind name: their IDs begin with "name:".
func typesOf(name string) string {
	return fmt.Sprintf("type >= %s AND type < %s", quote(name+":"), quote(name+";"))
}
