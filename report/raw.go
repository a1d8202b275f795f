package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// writeRaw writes p exactly as p.String() returns it (pprof -raw), in
// time linear in the profile's size: String builds each sample's line by
// repeated string concatenation, quadratic in the stack's depth (6 s for
// one 100,000-frame stack, minutes for a million frames).
func writeRaw(w io.Writer, p *profile.Profile) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, c := range p.Comments {
		bw.WriteString("Comment: " + c + "\n")
	}
	if p.DocURL != "" {
		bw.WriteString("Doc: " + p.DocURL + "\n")
	}
	if pt := p.PeriodType; pt != nil {
		fmt.Fprintf(bw, "PeriodType: %s %s\n", pt.Type, pt.Unit)
	}
	fmt.Fprintf(bw, "Period: %d\n", p.Period)
	if p.TimeNanos != 0 {
		fmt.Fprintf(bw, "Time: %v\n", time.Unix(0, p.TimeNanos))
	}
	if p.DurationNanos != 0 {
		fmt.Fprintf(bw, "Duration: %.4v\n", time.Duration(p.DurationNanos))
	}
	bw.WriteString("Samples:\n")
	var types strings.Builder
	for _, s := range p.SampleType {
		dflt := ""
		if s.Type == p.DefaultSampleType {
			dflt = "[dflt]"
		}
		fmt.Fprintf(&types, "%s/%s%s ", s.Type, s.Unit, dflt)
	}
	bw.WriteString(strings.TrimSpace(types.String()) + "\n")
	var buf []byte
	for _, s := range p.Sample {
		buf = appendSample(buf[:0], s)
		bw.Write(buf)
	}
	bw.WriteString("Locations\n")
	for _, l := range p.Location {
		writeLocation(bw, l)
	}
	bw.WriteString("Mappings\n")
	for _, m := range p.Mapping {
		writeMapping(bw, m)
	}
	return bw.Flush()
}

// appendSample appends a sample's lines as Sample.string writes them.
func appendSample(b []byte, s *profile.Sample) []byte {
	for _, v := range s.Value {
		b = fmt.Appendf(b, " %10d", v)
	}
	b = append(b, ": "...)
	for _, l := range s.Location {
		b = strconv.AppendUint(b, l.ID, 10)
		b = append(b, ' ')
	}
	const labelHeader = "\n                "
	if len(s.Label) > 0 {
		var ls []string
		for k, v := range s.Label {
			ls = append(ls, fmt.Sprintf("%s:%v", k, v))
		}
		b = appendSorted(append(b, labelHeader...), ls)
	}
	if len(s.NumLabel) > 0 {
		var ls []string
		for k, v := range s.NumLabel {
			units := s.NumUnit[k]
			if len(units) != len(v) {
				ls = append(ls, fmt.Sprintf("%s:%v", k, v))
				continue
			}
			values := make([]string, len(v))
			for i, vv := range v {
				values[i] = fmt.Sprintf("%d %s", vv, units[i])
			}
			ls = append(ls, fmt.Sprintf("%s:%v", k, values))
		}
		b = appendSorted(append(b, labelHeader...), ls)
	}
	return append(b, '\n')
}

// appendSorted appends ls sorted, separated by spaces.
func appendSorted(b []byte, ls []string) []byte {
	slices.Sort(ls)
	return append(b, strings.Join(ls, " ")...)
}

// writeLocation writes a location's lines as Location.string does.
func writeLocation(w *bufio.Writer, l *profile.Location) {
	head := fmt.Sprintf("%6d: %#x ", l.ID, l.Address)
	if m := l.Mapping; m != nil {
		head += fmt.Sprintf("M=%d ", m.ID)
	}
	if l.IsFolded {
		head += "[F] "
	}
	if len(l.Line) == 0 {
		w.WriteString(head + "\n")
	}
	for _, ln := range l.Line {
		w.WriteString(head)
		if fn := ln.Function; fn != nil {
			fmt.Fprintf(w, "%s %s:%d:%d s=%d", fn.Name, fn.Filename, ln.Line, ln.Column, fn.StartLine)
			if fn.Name != fn.SystemName {
				w.WriteString("(" + fn.SystemName + ")")
			}
		} else {
			w.WriteString("??")
		}
		w.WriteByte('\n')
		head = "             " // details only on the first line
	}
}

// writeMapping writes a mapping's line as Mapping.string does.
func writeMapping(w *bufio.Writer, m *profile.Mapping) {
	bits := ""
	if m.HasFunctions {
		bits += "[FN]"
	}
	if m.HasFilenames {
		bits += "[FL]"
	}
	if m.HasLineNumbers {
		bits += "[LN]"
	}
	if m.HasInlineFrames {
		bits += "[IN]"
	}
	fmt.Fprintf(w, "%d: %#x/%#x/%#x %s %s %s\n", m.ID, m.Start, m.Limit, m.Offset, m.File, m.BuildID, bits)
}
