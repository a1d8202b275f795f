package querier

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// A node is one frame of a call tree merged by function name, as
// Pyroscope's trees are: a stack's frames are its functions' names, root
// first, inlined functions included, and two stacks share a node as long
// as their names agree.
type node struct {
	name        string
	self, total int64
	children    []*node // sorted by name, byte by byte
}

// child returns n's child named name, adding it in its sorted place if n
// has none.
func (n *node) child(name string) *node {
	i, found := slices.BinarySearchFunc(n.children, name, func(c *node, name string) int { return strings.Compare(c.name, name) })
	if found {
		return n.children[i]
	}
	c := &node{name: name}
	n.children = slices.Insert(n.children, i, c)
	return c
}

// A tree is the call tree of one sample type of a profile. Its root has
// no name; its children are the stacks' outermost frames.
type tree struct {
	root node
}

// otherName is the name of the node that stands for the children too
// small to show, in Pyroscope's trees and flame graphs.
const otherName = "other"

// insert adds v to the stack of names, root first. As in Pyroscope, a
// value that is not positive, or a stack without frames, adds nothing.
func (t *tree) insert(v int64, stack []string) {
	if v <= 0 || len(stack) == 0 {
		return
	}
	n := &t.root
	for _, name := range stack {
		n.total += v
		n = n.child(name)
	}
	n.total += v
	n.self += v
}

// treeOf returns the call tree of p's sample type index, of the samples
// whose stack begins (root first) with the names of callSite.
func treeOf(p *profile.Profile, index int, callSite []string) *tree {
	t := &tree{}
	names := map[*profile.Location][]string{}
	var stack []string
	for _, s := range p.Sample {
		if index >= len(s.Value) || s.Value[index] <= 0 {
			continue
		}
		stack = stack[:0]
		for _, loc := range s.Location { // leaf first
			ns, ok := names[loc]
			if !ok {
				ns = locationNames(loc)
				names[loc] = ns
			}
			stack = append(stack, ns...)
		}
		slices.Reverse(stack)
		if len(stack) < len(callSite) || !slices.Equal(stack[:len(callSite)], callSite) {
			continue
		}
		t.insert(s.Value[index], stack)
	}
	return t
}

// locationNames returns the names of loc's frames, innermost first, as
// pprof orders a location's lines; an unsymbolized location is named by
// its address in hexadecimal, as Pyroscope names it.
func locationNames(loc *profile.Location) []string {
	if len(loc.Line) == 0 {
		return []string{strconv.FormatUint(loc.Address, 16)}
	}
	ns := make([]string, len(loc.Line))
	for i, l := range loc.Line {
		if l.Function != nil {
			ns[i] = l.Function.Name
		}
	}
	return ns
}

// minValue returns the total a node needs to be shown when at most
// maxNodes nodes may be: the maxNodes-th largest total of the tree's
// nodes, or 0 when the tree has no more nodes than that (or maxNodes is
// not positive).
func (t *tree) minValue(maxNodes int64) int64 {
	if maxNodes < 1 {
		return 0
	}
	var totals []int64
	walk(&t.root, func(n *node) { totals = append(totals, n.total) })
	totals = totals[1:] // the root is not a node of the answer
	if int64(len(totals)) <= maxNodes {
		return 0
	}
	slices.SortFunc(totals, func(a, b int64) int { return compareInt64(b, a) })
	return totals[maxNodes-1]
}

func compareInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// walk calls f on n and every node below it, parents before children.
func walk(n *node, f func(*node)) {
	stack := []*node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f(n)
		stack = append(stack, n.children...)
	}
}

// truncate folds, under every node, the children whose total is below
// minValue(maxNodes) into one child named "other", as Pyroscope does to
// the trees its queriers return.
func (t *tree) truncate(maxNodes int64) {
	minVal := t.minValue(maxNodes)
	if minVal == 0 {
		return
	}
	walk(&t.root, func(n *node) {
		var other int64
		kept := n.children[:0]
		for _, c := range n.children {
			if c.total >= minVal || c.name == otherName {
				kept = append(kept, c)
			} else {
				other += c.total
			}
		}
		clear(n.children[len(kept):])
		n.children = kept
		if other > 0 {
			o := n.child(otherName)
			o.total += other
			o.self += other
		}
	})
}

// marshal encodes t in Pyroscope's tree format (the PROFILE_FORMAT_TREE
// answer): the nodes in depth-first order, each as the uvarint length of
// its name, the name, the uvarint self value and the uvarint count of its
// children, from a root without a name; the children of a node follow in
// reverse order of their names.
func (t *tree) marshal() []byte {
	if len(t.root.children) == 0 {
		return nil
	}
	var b []byte
	stack := []*node{&t.root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b = binary.AppendUvarint(b, uint64(len(n.name)))
		b = append(b, n.name...)
		b = binary.AppendUvarint(b, uint64(n.self))
		b = binary.AppendUvarint(b, uint64(len(n.children)))
		stack = append(stack, n.children...)
	}
	return b
}
