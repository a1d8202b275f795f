package report

import (
	"regexp"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/parallel"
)

// A stackFilter applies -focus, -ignore, -hide, -show and -show_from as
// pprof's Profile.FilterSamplesByName and Profile.ShowFrom do, with the
// same results, but with per-location arrays indexed by position where
// pprof looks up a map by location ID for every frame of every sample
// (seconds on a large profile). It edits copies of the locations (locs),
// never p's.
type stackFilter struct {
	locs                      []profile.Location // copies of p.Location, lines filtered
	li                        *locIndex          // positions in p.Location
	focusOrIgnore             []int8             // 1 focused, -1 ignored, 0 neither
	hidden, showFrom          []bool
	anyFocus, anyHidden, from bool
}

// filterStacks returns p's samples that o's name filters and tag filters
// keep, each with its location list (cut or thinned as -hide, -show and
// -show_from ask), and the filtered copies of p's locations.
func filterStacks(p *profile.Profile, o *Options, units map[string]string) ([]*profile.Sample, [][]*profile.Location, []profile.Location, error) {
	x, err := compileFilters(o, units)
	if err != nil {
		return nil, nil, nil, err
	}
	focus, ignore, hide, show, showFrom := x.focus, x.ignore, x.hide, x.show, x.showFrom
	tagFocus, tagIgnore := x.tagFocus, x.tagIgnore
	f := &stackFilter{li: newLocIndex(p.Location), locs: make([]profile.Location, len(p.Location))}
	for i, l := range p.Location {
		f.locs[i] = *l
	}
	fm, im, hm, sm := f.byName(focus, ignore, hide, show)
	warnIf(o.Warnings, focus != nil && !fm, "Focus")
	warnIf(o.Warnings, ignore != nil && !im, "Ignore")
	warnIf(o.Warnings, hide != nil && !hm, "Hide")
	warnIf(o.Warnings, show != nil && !sm, "Show")
	sfm := f.markShowFrom(showFrom)
	warnIf(o.Warnings, showFrom != nil && !sfm, "ShowFrom")
	samples, stacks := f.samples(p.Sample)
	if tagFocus != nil || tagIgnore != nil {
		var tfm, tim bool
		samples, stacks, tfm, tim = filterByTag(samples, stacks, tagFocus, tagIgnore)
		warnIf(o.Warnings, tagFocus != nil && !tfm, "TagFocus")
		warnIf(o.Warnings, tagIgnore != nil && !tim, "TagIgnore")
	}
	if x.tagNames != nil {
		samples = filterTagNames(samples, x.tagNames)
		x.tagNames.warn(o.Warnings)
	}
	return samples, stacks, f.locs, nil
}

// byName marks the locations as Profile.FilterSamplesByName does and
// returns the same match flags.
func (f *stackFilter) byName(focus, ignore, hide, show *regexp.Regexp) (fm, im, hm, hnm bool) {
	if focus == nil && ignore == nil && hide == nil && show == nil {
		return true, false, false, false
	}
	f.anyFocus = true
	n := len(f.locs)
	f.focusOrIgnore, f.hidden = make([]int8, n), make([]bool, n)
	for i := range f.locs {
		l := &f.locs[i]
		if ignore != nil && matchesName(l, ignore) {
			im = true
			f.focusOrIgnore[i] = -1
		} else if focus == nil || matchesName(l, focus) {
			fm = true
			f.focusOrIgnore[i] = 1
		}
		if hide != nil && matchesName(l, hide) {
			hm = true
			l.Line = selectLines(l, hide, false)
			if len(l.Line) == 0 {
				f.hidden[i], f.anyHidden = true, true
			}
		}
		if show != nil {
			l.Line = selectLines(l, show, true)
			if len(l.Line) == 0 {
				f.hidden[i], f.anyHidden = true, true
			} else {
				hnm = true
			}
		}
	}
	return fm, im, hm, hnm
}

// markShowFrom marks the locations -show_from starts from, cutting their
// lines as Profile.ShowFrom does.
func (f *stackFilter) markShowFrom(re *regexp.Regexp) (matched bool) {
	if re == nil {
		return false
	}
	f.from = true
	f.showFrom = make([]bool, len(f.locs))
	for i := range f.locs {
		l := &f.locs[i]
		if m := l.Mapping; m != nil && re.MatchString(m.File) {
			f.showFrom[i], matched = true, true
			continue
		}
		for j := len(l.Line) - 1; j >= 0; j-- {
			if fn := l.Line[j].Function; fn != nil && (re.MatchString(fn.Name) || re.MatchString(fn.Filename)) {
				l.Line = l.Line[:j+1]
				f.showFrom[i], matched = true, true
				break
			}
		}
	}
	return matched
}

// samples returns the samples the name filters keep and their stacks.
// Large profiles are split between goroutines, each writing its share's
// from the share's start; the shares are then moved together.
func (f *stackFilter) samples(in []*profile.Sample) ([]*profile.Sample, [][]*profile.Location) {
	out := make([]*profile.Sample, len(in))
	stacks := make([][]*profile.Location, len(in))
	parts := parallel.Split(len(in), parallelMin)
	counts := make([]int, len(parts))
	parallel.Run(parts, func(k, lo, hi int) {
		counts[k] = f.samplesOf(in[lo:hi], out[lo:hi], stacks[lo:hi])
	})
	n := 0
	for k, p := range parts {
		n += copy(out[n:], out[p[0]:p[0]+counts[k]])
		copy(stacks[n-counts[k]:], stacks[p[0]:p[0]+counts[k]])
	}
	clear(out[n:])
	clear(stacks[n:])
	return out[:n], stacks[:n]
}

// samplesOf writes the kept samples of in and their stacks to out and
// stacks, from their start, and returns how many it kept.
func (f *stackFilter) samplesOf(in, out []*profile.Sample, stacks [][]*profile.Location) int {
	n := 0
	var arena []*profile.Location
	for _, s := range in {
		locs := s.Location
		if f.anyFocus && !f.focused(locs) {
			continue
		}
		if f.anyHidden {
			// The kept locations of the samples share one array.
			if arena == nil {
				size := 0
				for _, s := range in {
					size += len(s.Location)
				}
				arena = make([]*profile.Location, 0, size)
			}
			from := len(arena)
			for _, l := range locs {
				if i := f.li.get(l); i < 0 || !f.hidden[i] {
					arena = append(arena, l)
				}
			}
			if len(arena) == from {
				continue
			}
			locs = arena[from:len(arena):len(arena)]
		}
		if f.from {
			k := len(locs) - 1
			for ; k >= 0; k-- {
				if i := f.li.get(locs[k]); i >= 0 && f.showFrom[i] {
					break
				}
			}
			if k < 0 {
				continue
			}
			locs = locs[:k+1]
		}
		out[n], stacks[n] = s, locs
		n++
	}
	return n
}

// focused reports whether a stack has a focused location and no ignored one.
func (f *stackFilter) focused(locs []*profile.Location) bool {
	var found bool
	for _, l := range locs {
		i := f.li.get(l)
		if i < 0 {
			continue
		}
		switch f.focusOrIgnore[i] {
		case 1:
			found = true
		case -1:
			return false
		}
	}
	return found
}

// filterByTag keeps the samples that tagFocus selects and tagIgnore does
// not, as Profile.FilterSamplesByTag does.
func filterByTag(samples []*profile.Sample, stacks [][]*profile.Location, focus, ignore profile.TagMatch) ([]*profile.Sample, [][]*profile.Location, bool, bool) {
	var fm, im bool
	outS, outL := samples[:0], stacks[:0]
	for i, s := range samples {
		focused, ignored := true, false
		if focus != nil {
			focused = focus(s)
		}
		if ignore != nil {
			ignored = ignore(s)
		}
		fm, im = fm || focused, im || ignored
		if focused && !ignored {
			outS, outL = append(outS, s), append(outL, stacks[i])
		}
	}
	return outS, outL, fm, im
}

// matchesName reports whether a line's function or file name, or the
// mapping's file, matches re (pprof's Location.matchesName).
func matchesName(l *profile.Location, re *regexp.Regexp) bool {
	for _, ln := range l.Line {
		if fn := ln.Function; fn != nil && (re.MatchString(fn.Name) || re.MatchString(fn.Filename)) {
			return true
		}
	}
	return l.Mapping != nil && re.MatchString(l.Mapping.File)
}

// selectLines returns l's lines that match re (keep set) or do not;
// a matching mapping selects all or none (pprof's matchedLines and
// unmatchedLines).
func selectLines(l *profile.Location, re *regexp.Regexp, keep bool) []profile.Line {
	if m := l.Mapping; m != nil && re.MatchString(m.File) {
		if keep {
			return l.Line
		}
		return nil
	}
	var lines []profile.Line
	for _, ln := range l.Line {
		fn := ln.Function
		match := fn != nil && (re.MatchString(fn.Name) || re.MatchString(fn.Filename))
		if fn == nil || match == keep {
			lines = append(lines, ln)
		}
	}
	return lines
}

// filterTagNames applies -tagshow and -taghide to copies of the samples
// whose labels they change, leaving the profile's samples as they are.
func filterTagNames(samples []*profile.Sample, f *tagNameFilter) []*profile.Sample {
	out := make([]*profile.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		if label, num, changed := f.apply(s); changed {
			c := *s
			c.Label, c.NumLabel = label, num
			out[i] = &c
		}
	}
	return out
}
