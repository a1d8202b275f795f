package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// grid lays out a text table in a fixed-width font the way benchstat does:
// cells may span columns and carry a left margin, "shrink" columns keep
// their minimum width, and spanning cells widen the other columns they
// cover, widest first.
type grid struct {
	cells    []gridCell
	ncols    int
	shrink   map[int]bool
	row, col int
}

type gridCell struct {
	row, col, span int
	text, margin   string
	align          byte // 'l', 'c' or 'r'
}

// newRow starts a new row.
func (g *grid) newRow() {
	if len(g.cells) > 0 {
		g.row++
	}
	g.col = 0
}

// at moves to column col of the current row.
func (g *grid) at(col int) *grid {
	g.col = col
	return g
}

// put adds a cell spanning span columns at the current position. A cell
// gets a one-space left margin unless margin is given, it is empty, or it
// is in the first column.
func (g *grid) put(span int, text string, align byte, margin ...string) {
	m := " "
	if g.col == 0 || text == "" {
		m = ""
	}
	if len(margin) > 0 {
		m = margin[0]
	}
	g.cells = append(g.cells, gridCell{g.row, g.col, span, text, m, align})
	g.col += span
	g.ncols = max(g.ncols, g.col)
}

func (g *grid) setShrink(col int) {
	if g.shrink == nil {
		g.shrink = make(map[int]bool)
	}
	g.shrink[col] = true
}

// widths returns each column's width, margins included, and each column's
// margin width.
func (g *grid) widths() (ws, margins []int) {
	margins = make([]int, g.ncols)
	for _, c := range g.cells {
		margins[c.col] = max(margins[c.col], utf8.RuneCountInString(c.margin))
	}
	ws = make([]int, g.ncols)
	sort.Slice(g.cells, func(i, j int) bool { return g.cells[i].span < g.cells[j].span })
	var grow []int
	for _, c := range g.cells {
		need := utf8.RuneCountInString(c.text) + margins[c.col]
		if c.span == 1 {
			ws[c.col] = max(ws[c.col], need)
			continue
		}
		have := 0
		for i := c.col; i < c.col+c.span; i++ {
			have += ws[i]
		}
		if have >= need {
			continue
		}
		grow = grow[:0]
		for i := c.col; i < c.col+c.span; i++ {
			if g.shrink[i] {
				need -= ws[i]
			} else {
				grow = append(grow, i)
			}
		}
		sort.Slice(grow, func(i, j int) bool { return ws[grow[i]] > ws[grow[j]] })
		left := len(grow)
		for _, i := range grow {
			ws[i] = max(ws[i], (need+left-1)/left)
			need -= ws[i]
			left--
		}
	}
	return ws, margins
}

// write prints the grid to w, without trailing blanks.
func (g *grid) write(w io.Writer) error {
	ws, margins := g.widths()
	offs := make([]int, g.ncols+1)
	for i, wd := range ws {
		offs[i+1] = offs[i] + wd
	}
	sort.Slice(g.cells, func(i, j int) bool {
		if g.cells[i].row != g.cells[j].row {
			return g.cells[i].row < g.cells[j].row
		}
		return g.cells[i].col < g.cells[j].col
	})
	var b strings.Builder
	row, off := 0, 0
	for _, c := range g.cells {
		if strings.TrimSpace(c.text) == "" && strings.TrimSpace(c.margin) == "" {
			continue
		}
		for ; row < c.row; row++ {
			b.WriteByte('\n')
			off = 0
		}
		fmt.Fprintf(&b, "%*s%*s", offs[c.col]-off, "", margins[c.col], c.margin)
		off = offs[c.col] + margins[c.col]
		s := pad(c.text, c.align, offs[c.col+c.span]-off)
		b.WriteString(s)
		off += utf8.RuneCountInString(s)
	}
	if len(g.cells) > 0 {
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pad aligns s in a field of width w; left-aligned text is not padded.
// It pads with fmt's %*s so that odd widths behave exactly as benchstat's.
func pad(s string, align byte, w int) string {
	switch align {
	case 'c':
		return fmt.Sprintf("%*s%s", (w-utf8.RuneCountInString(s))/2, "", s)
	case 'r':
		return fmt.Sprintf("%*s", w, s)
	}
	return s
}
