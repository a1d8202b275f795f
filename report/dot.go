package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/graph"
)

// maxNodelets is the number of tag nodelets a node shows, at most.
const maxNodelets = 4

// CallGraph returns the call graph `go tool pprof -dot` draws for p with
// options o — the same nodes, edges, labels, colours and legend — as a
// graph.Graph to lay out and draw (graph.WriteSVG). It filters p in place,
// as Generate does.
func CallGraph(p *profile.Profile, o Options) (*graph.Graph, error) {
	r, err := prepare(p, Dot, o)
	if err != nil {
		return nil, err
	}
	return r.composeDot(r.buildDot(), io.Discard)
}

// dot writes the graph in Graphviz's DOT language, as pprof -dot does.
func (r *run) dot(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := r.composeDot(r.buildDot(), bw); err != nil {
		return err
	}
	return bw.Flush()
}

// A dotComposer writes a dotGraph as DOT and builds its graph.Graph in the
// same pass, so that the two cannot disagree.
type dotComposer struct {
	r   *run
	w   io.Writer
	g   *graph.Graph
	err error
}

func (c *dotComposer) printf(format string, args ...any) {
	if c.err == nil {
		_, c.err = fmt.Fprintf(c.w, format, args...)
	}
}

// composeDot writes dg to w in pprof's DOT form and returns its model.
func (r *run) composeDot(dg *dotGraph, w io.Writer) (*graph.Graph, error) {
	r.selectUnit(&trimmed{ix: dg.ix, st: dg.ix.stats, nodes: dotIDs(dg.nodes)})
	c := &dotComposer{r: r, w: w, g: &graph.Graph{}}
	if len(r.p.Mapping) > 0 && r.p.Mapping[0].File != "" {
		c.g.Title = filepath.Base(r.p.Mapping[0].File)
	}
	c.g.Legend = r.dotLabels(dg)
	name := c.g.Title
	if name == "" {
		name = "unnamed"
	}
	c.printf("digraph \"%s\" {\n", name)
	c.printf("node [style=filled fillcolor=\"#f8f8f8\"]\n")
	c.legend()
	if len(dg.nodes) > 0 {
		c.body(dg)
	}
	c.printf("}\n")
	return c.g, c.err
}

func dotIDs(ns []*dotNode) []int32 {
	ids := make([]int32, len(ns))
	for i, n := range ns {
		ids[i] = n.id
	}
	return ids
}

// dotLabels are the legend's lines: the profile's labels (always, unlike
// text reports), the filters, what was trimmed and a pointer to help.
func (r *run) dotLabels(dg *dotGraph) []string {
	out := append(r.profileLabels(), r.filterLabels()...)
	var shown int64
	for _, n := range dg.nodes {
		shown += n.flatValue()
	}
	out = append(out, fmt.Sprintf("Showing nodes accounting for %s, %s of %s total",
		r.format(shown), strings.TrimSpace(percentage(shown, r.total)), r.format(r.total)))
	if r.total != 0 {
		if dg.dropped > 0 {
			out = append(out, droppedLabel(dg.dropped, "node", "cum", r.format(abs64(int64(float64(r.total)*r.o.NodeFraction)))))
		}
		if dg.droppedEdges > 0 {
			out = append(out, droppedLabel(dg.droppedEdges, "edge", "freq", r.format(abs64(int64(float64(r.total)*r.o.EdgeFraction)))))
		}
		if n := len(dg.nodes); n > 0 && n < dg.origCount {
			out = append(out, fmt.Sprintf("Showing top %d nodes out of %d", n, dg.origCount))
		}
	}
	return append(out, "\nSee https://git.io/JfYMW for how to read the graph")
}

func droppedLabel(n int, noun, what, cut string) string {
	if n > 1 {
		noun += "s"
	}
	return fmt.Sprintf("Dropped %d %s (%s <= %s)", n, noun, what, cut)
}

func (c *dotComposer) legend() {
	labels := c.g.Legend
	c.printf(`subgraph cluster_L { "%s" [shape=box fontsize=16`, escapeForDot(labels[0]))
	esc := make([]string, len(labels))
	for i, l := range labels {
		esc[i] = escapeForDot(l)
	}
	c.printf(` label="%s\l"`, strings.Join(esc, `\l`))
	if c.g.Title != "" {
		c.printf(` tooltip="%s"`, c.g.Title)
	}
	c.printf("] }\n")
}

// body writes the nodes with their nodelets, then the edges by weight.
func (c *dotComposer) body(dg *dotGraph) {
	pos := make(map[*dotNode]int, len(dg.nodes))
	maxFlat := float64(abs64(dg.nodes[0].flatValue()))
	for i, n := range dg.nodes {
		pos[n] = i + 1
		maxFlat = math.Max(maxFlat, float64(abs64(n.flatValue())))
	}
	hasTags := make(map[*dotNode]bool)
	index := make(map[*dotNode]int) // position in c.g.Nodes
	var edges []*dotEdge
	for _, n := range dg.nodes {
		index[n] = len(c.g.Nodes)
		c.node(dg, n, pos[n], maxFlat)
		hasTags[n] = c.nodelets(n, pos[n], index[n])
		for _, e := range n.out {
			edges = append(edges, e)
		}
	}
	names := dg.ix.names
	sortEdgeList(edges, names)
	for _, e := range edges {
		fi, fok := index[e.src]
		ti, tok := index[e.dst]
		if !fok || !tok {
			fi, ti = -1, -1 // to a node left out: in the DOT only
		}
		c.edge(e, pos[e.src], pos[e.dst], fi, ti, hasTags[e.src], names)
	}
}

// sortEdgeList orders edges by weight, then by caller and callee name.
func sortEdgeList(es []*dotEdge, names []string) {
	// pprof leaves edges of equal and opposite weights in random order
	// (its comparison is not a strict order): order them by name, then
	// positive first.
	sortFunc(es, func(a, b *dotEdge) bool {
		if wa, wb := abs64(a.w), abs64(b.w); wa != wb {
			return wa > wb
		}
		if s, t := names[a.src.id], names[b.src.id]; s != t {
			return s < t
		}
		if s, t := names[a.dst.id], names[b.dst.id]; s != t {
			return s < t
		}
		return a.w > b.w
	})
}

// node writes node n, the nodeID-th.
func (c *dotComposer) node(dg *dotGraph, n *dotNode, nodeID int, maxFlat float64) {
	r := c.r
	info := &dg.ix.infos[n.id]
	lines, dotName := nameLines(info)
	flat, cum := n.flatValue(), n.cumValue()
	flatValue := r.format(flat)
	label := dotName
	var values []string
	if flat != 0 {
		s := fmt.Sprintf("%s (%s)", flatValue, strings.TrimSpace(percentage(flat, r.total)))
		label += s
		values = append(values, s)
	} else {
		label += "0"
		values = append(values, "0")
	}
	cumValue := flatValue
	var cumText string
	if cum != flat {
		sep := " "
		if flat != 0 {
			sep = `\n`
		}
		cumValue = r.format(cum)
		cumText = fmt.Sprintf("of %s (%s)", cumValue, strings.TrimSpace(percentage(cum, r.total)))
		label += sep + cumText
		if flat != 0 {
			values = append(values, cumText)
		} else {
			values[0] += " " + cumText
		}
	}
	fontSize := 8
	if maxFlat != 0 && flat != 0 && float64(abs64(flat)) <= maxFlat {
		fontSize += int(math.Ceil(16 * math.Sqrt(float64(abs64(flat))/maxFlat)))
	}
	name := dg.ix.names[n.id]
	tooltip := fmt.Sprintf("%s (%s)", name, cumValue)
	score := float64(cum) / float64(abs64(r.total))
	color, fill := dotColor(score, false), dotColor(score, true)
	c.printf("N%d [label=\"%s\" id=\"node%d\" fontsize=%d shape=box tooltip=\"%s (%s)\" color=\"%s\" fillcolor=\"%s\"]\n",
		nodeID, label, nodeID, fontSize, escapeForDot(name), cumValue, color, fill)
	c.g.Nodes = append(c.g.Nodes, &graph.Node{
		ID: "N" + strconv.Itoa(nodeID), Kind: graph.Function, Name: name,
		Lines: append(lines, values...), Flat: flat, Cum: cum,
		FlatText: values[0], CumText: cumText, FontSize: fontSize,
		Color: color, FillColor: fill, Tooltip: tooltip, Parent: -1,
	})
}

// nameLines returns a node's name as its label shows it: the address,
// the shortened function name split at dots and "::", and the file's
// base name; and the same joined as DOT text, where only the function
// name is escaped (as pprof does).
func nameLines(info *nodeInfo) (lines []string, dot string) {
	var dots []string
	if info.Address != 0 {
		lines = append(lines, hex16(info.Address))
		dots = append(dots, hex16(info.Address))
	}
	if info.Name != "" {
		const sep = "\x00"
		s := strings.ReplaceAll(shortenFunctionName(info.Name), "::", sep)
		s = strings.ReplaceAll(s, "[...]", "[…]")
		s = strings.ReplaceAll(s, ".", sep)
		for _, part := range strings.Split(s, sep) {
			lines = append(lines, part)
			dots = append(dots, escapeForDot(part))
		}
	}
	var tail string
	file := info.File
	if file != "" {
		file = filepath.Base(file)
	}
	switch {
	case info.Lineno != 0:
		tail = file + ":" + strconv.Itoa(info.Lineno)
		if info.Columnno != 0 {
			tail += ":" + strconv.Itoa(info.Columnno)
		}
	case file != "":
		tail = file
	case info.Name != "":
	case info.Objfile != "":
		tail = "[" + filepath.Base(info.Objfile) + "]"
	default:
		tail = "<unknown>"
	}
	if tail != "" {
		lines = append(lines, tail)
		dots = append(dots, tail)
	}
	return lines, strings.Join(dots, `\n`) + `\n`
}

var (
	javaRegExp               = regexp.MustCompile(`^(?:[a-z]\w*\.)*([A-Z][\w\$]*\.(?:<init>|[a-z][\w\$]*(?:\$\d+)?))(?:(?:\()|$)`)
	goRegExp                 = regexp.MustCompile(`^(?:[\w\-\.]+\/)+([^.]+\..+)`)
	goVerRegExp              = regexp.MustCompile(`^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)$`)
	cppRegExp                = regexp.MustCompile(`^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?)`)
	cppAnonymousPrefixRegExp = regexp.MustCompile(`^\(anonymous namespace\)::`)
)

// shortenFunctionName drops package paths (Go), packages (Java) and
// namespaces (C++) from a function name, as pprof's graph labels do.
func shortenFunctionName(f string) string {
	f = cppAnonymousPrefixRegExp.ReplaceAllString(f, "")
	f = goVerRegExp.ReplaceAllString(f, `${1}${2}`)
	for _, re := range []*regexp.Regexp{goRegExp, javaRegExp, cppRegExp} {
		if m := re.FindStringSubmatch(f); len(m) >= 2 {
			return strings.Join(m[1:], "")
		}
	}
	return f
}

// escapeForDot escapes quotes and backslashes and turns newlines into
// Graphviz's left-justified line breaks.
func escapeForDot(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`), "\n", `\l`)
}

// dotColor returns pprof's colour for a score in [-1, 1]: green for
// negative, grey near 0, red for positive; light for backgrounds.
func dotColor(score float64, background bool) string {
	const shift = 0.7
	saturation, value := 1.0, 0.7
	if background {
		saturation, value = 0.1, 0.93
	}
	score = math.Max(-1.0, math.Min(1.0, score))
	if math.Abs(score) < 0.2 {
		saturation *= math.Abs(score) / 0.2
	}
	if score > 0.0 {
		score = math.Pow(score, (1.0 - shift))
	}
	if score < 0.0 {
		score = -math.Pow(-score, (1.0 - shift))
	}
	var r, g, b float64
	if score < 0.0 {
		g = value
		r = value * (1 + saturation*score)
	} else {
		r = value
		g = value * (1 - saturation*score)
	}
	b = value * (1 - saturation)
	return fmt.Sprintf("#%02x%02x%02x", uint8(r*255.0), uint8(g*255.0), uint8(b*255.0))
}
