package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

const tracesSeparator = "-----------+-------------------------------------------------------"

// traces writes every sample: its labels, its value and its stack, leaf
// first, inlined frames marked.
func (r *run) traces(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintln(bw, strings.Join(r.profileLabels(), "\n"))
	ix := newFrameIndex(r.p, newGranularity(&r.o, false, false))
	for _, s := range r.p.Sample {
		if len(s.Location) == 0 {
			continue
		}
		fmt.Fprintln(bw, tracesSeparator)
		var labels []string
		for k, vs := range s.Label {
			labels = append(labels, fmt.Sprintf("%10s:  %s\n", k, strings.Join(vs, " ")))
		}
		sort.Strings(labels)
		var num []string
		for k, vs := range s.NumLabel {
			strs := make([]string, len(vs))
			for i, v := range vs {
				strs[i] = autoLabel(v, r.numUnits[k])
			}
			num = append(num, fmt.Sprintf("%10s:  %s\n", k, strings.Join(strs, " ")))
		}
		sort.Strings(num)
		bw.WriteString(strings.Join(labels, ""))
		bw.WriteString(strings.Join(num, ""))
		v, d := r.val.get(s.Value)
		v = divide(v, d)
		first := true
		for _, l := range s.Location {
			loc := ix.locs.get(l)
			if loc < 0 {
				continue
			}
			last := ix.locStart[loc+1] - 1
			for j := ix.locStart[loc]; j <= last; j++ {
				var vs string
				if first {
					vs, first = r.format(v), false
				}
				writePadded(bw, vs, 10)
				bw.WriteString("   ")
				bw.WriteString(ix.names[ix.locNodes[j]])
				bw.WriteString(inlineMark(j != last))
				bw.WriteByte('\n')
			}
		}
	}
	fmt.Fprintln(bw, tracesSeparator)
	return bw.Flush()
}

// A tagValue is one value of a label key and the samples' total for it.
type tagValue struct {
	name  string
	value int64
}

// tags writes, for every label key, each value's share of the total.
func (r *run) tags(w io.Writer) error {
	byKey := map[string]map[string]int64{}
	keyTotal := map[string]int64{}
	add := func(k, v string, x int64) {
		m := byKey[k]
		if m == nil {
			m = map[string]int64{}
			byKey[k] = m
		}
		m[v] += x
		keyTotal[k] += x
	}
	for _, s := range r.p.Sample {
		x, _ := r.val.get(s.Value)
		for k, vs := range s.Label {
			for _, v := range vs {
				add(k, v, x)
			}
		}
		for k, vs := range s.NumLabel {
			for _, v := range vs {
				add(k, scaledLabel(v, r.numUnits[k], r.o.Unit), x)
			}
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	for _, k := range keys {
		vals := make([]tagValue, 0, len(byKey[k]))
		for v, x := range byKey[k] {
			vals = append(vals, tagValue{v, x})
		}
		sort.Slice(vals, func(i, j int) bool {
			if a, b := abs64(vals[i].value), abs64(vals[j].value); a != b {
				return a > b
			}
			return vals[i].name < vals[j].name
		})
		kt := keyTotal[k]
		if r.total > 0 {
			fmt.Fprintf(tw, "%s:\t Total %s of %s (%s)\n", k, r.format(kt), r.format(r.total), percentage(kt, r.total))
		} else {
			fmt.Fprintf(tw, "%s:\t Total %s of %s\n", k, r.format(kt), r.format(r.total))
		}
		for _, v := range vals {
			if r.total > 0 {
				fmt.Fprintf(tw, " \t%s (%s):\t %s\n", r.format(v.value), percentage(v.value, r.total), v.name)
			} else {
				fmt.Fprintf(tw, " \t%s:\t %s\n", r.format(v.value), v.name)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// raw writes the profile's own text form (profile.Profile.String) after
// filtering; -noinlines folds inlined frames into their callers first.
func (r *run) raw(w io.Writer) error {
	if r.o.NoInlines {
		if err := r.p.Aggregate(false, true, true, true, false, true); err != nil {
			return err
		}
	}
	return writeRaw(w, r.p)
}

// writePadded writes s right-aligned in width columns, as %*s does.
func writePadded(w *bufio.Writer, s string, width int) {
	for n := utf8.RuneCountInString(s); n < width; n++ {
		w.WriteByte(' ')
	}
	w.WriteString(s)
}
