package report

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// list writes the annotated source of every function whose name matches
// the symbol regexp: each line of the function with its flat and
// cumulative values, read from the local source file.
func (r *run) list(w io.Writer) error {
	rx, err := r.symbolRegexp()
	if err != nil {
		return err
	}
	g := newGranularity(&r.o, true, true)
	g.keep = rx.MatchString // only matching functions are listed
	ix := newIndex(r.p, g, r.val)
	st := ix.stats
	byFunc := map[string][]int32{}
	var funcs []string
	for n := 1; n < len(ix.infos); n++ { // node 0 stands for other functions
		name := ix.infos[n].Name
		if (st.flat[n] == 0 && st.cum[n] == 0) || !rx.MatchString(name) {
			continue
		}
		if byFunc[name] == nil {
			funcs = append(funcs, name)
		}
		byFunc[name] = append(byFunc[name], int32(n))
	}
	if len(funcs) == 0 {
		return fmt.Errorf("no matches found for regexp: %s", rx)
	}
	sort.Strings(funcs)
	search := r.o.SourcePath
	if search == "" {
		if search, err = os.Getwd(); err != nil {
			return fmt.Errorf("could not stat current dir: %w", err)
		}
	}
	src := newSourceReader(search, r.o.TrimPath)
	fmt.Fprintf(w, "Total: %s\n", r.format(r.total))
	for _, name := range funcs {
		byFile := map[string][]int32{}
		var files []string
		for _, n := range byFunc[name] {
			f := ix.infos[n].File
			if f == "" {
				continue
			}
			if byFile[f] == nil {
				files = append(files, f)
			}
			byFile[f] = append(byFile[f], n)
		}
		if len(files) == 0 {
			fmt.Fprintf(w, "No source information for %s\n", name)
			continue
		}
		sort.Strings(files)
		for _, f := range files {
			r.listFile(w, ix, st, src, name, f, byFile[f])
		}
	}
	return nil
}

// listFile writes one function's lines in one file, from its first line
// (or five lines before the first sampled line) to five lines after the
// last sampled line.
func (r *run) listFile(w io.Writer, ix *index, st *stats, src *sourceReader, name, file string, nodes []int32) {
	const margin = 5
	sort.Slice(nodes, func(i, j int) bool { return ix.infos[nodes[i]].Lineno < ix.infos[nodes[j]].Lineno })
	var flatSum, cumSum int64
	flat, cum := map[int]int64{}, map[int]int64{}
	start, end := 0, 0
	for i, n := range nodes {
		in := &ix.infos[n]
		flatSum += st.flat[n]
		cumSum += st.cum[n]
		flat[in.Lineno] += st.flat[n]
		cum[in.Lineno] += st.cum[n]
		s := in.StartLine
		if s == 0 {
			s = in.Lineno - margin
		}
		if i == 0 || s < start {
			start = s
		}
		end = max(end, in.Lineno+margin)
	}
	start = max(start, 1)
	fmt.Fprintf(w, "ROUTINE ======================== %s in %s\n", name, file)
	fmt.Fprintf(w, "%10s %10s (flat, cum) %s of Total\n", r.format(flatSum), r.format(cumSum), percentage(cumSum, r.total))
	f, err := src.file(file)
	if err != nil {
		fmt.Fprintf(w, " Error: %v\n", err)
		return
	}
	f.lines(start, end, func(ln int, text string) {
		fmt.Fprintf(w, "%10s %10s %6d:%s\n", r.valueOrDot(flat[ln]), r.valueOrDot(cum[ln]), ln, text)
		r.writeLineNotes(w, file, ln)
	})
}

func (r *run) valueOrDot(v int64) string {
	if v == 0 {
		return "."
	}
	return r.format(v)
}
