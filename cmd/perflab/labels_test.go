package main

// labelCases are the conformance cases of -tagroot, -tagleaf, -tagshow
// and -taghide (pprof's group by label and label filters), on the
// workload's CPU profile (string labels worker and kind, set with
// pprof.Do, on some samples only) and its heap profile (the runtime's
// numeric label bytes, formatted in -unit).
func labelCases() []conformanceCase {
	cpu, heap := []string{"cpu.pb.gz"}, []string{"heap.pb.gz"}
	var cs []conformanceCase
	add := func(cmd, rx string, files []string, flags ...string) {
		cs = append(cs, conformanceCase{cmd: cmd, rx: rx, flags: flags, files: files})
	}
	for _, fl := range [][]string{
		{"-tagroot=worker"}, {"-tagleaf=worker"}, {"-tagroot=kind,worker"}, {"-tagleaf=worker,kind"},
		{"-tagroot=worker", "-tagleaf=kind"}, {"-tagroot=nosuchkey"}, {"-tagroot=worker", "-focus=w0"},
		{"-tagroot=worker", "-hide=main", "-cum"}, {"-tagroot=,worker,"}, {"-tagroot=worker", "-lines"},
		{"-tagshow=work"}, {"-taghide=kind"}, {"-tagshow=kind", "-taghide=kind"}, {"-taghide=nosuch"},
		{"-tagroot=worker", "-tagshow=kind"},
	} {
		for _, cmd := range []string{"top", "tree", "traces", "tags"} {
			add(cmd, "", cpu, fl...)
		}
	}
	add("peek", "main.cpuWork", cpu, "-tagroot=worker")
	add("peek", "w0", cpu, "-tagleaf=worker")
	add("peek", "main", cpu, "-tagroot=worker", "-tagleaf=kind")
	for _, fl := range [][]string{
		{"-tagroot=bytes"}, {"-tagleaf=bytes"}, {"-tagroot=bytes", "-unit=kb"}, {"-tagleaf=bytes", "-unit=auto"},
		{"-taghide=bytes"}, {"-tagshow=bytes"}, {"-tagroot=bytes", "-tagfocus=bytes=1kb:"},
	} {
		for _, cmd := range []string{"top", "tree", "traces", "tags"} {
			add(cmd, "", heap, fl...)
		}
	}
	add("top", "", []string{"allocs.txt"}, "-tagroot=bytes", "-sample_index=alloc_space")
	return cs
}

// labelGraphCases are the -dot comparisons of the label settings; the
// graph shows the label frames as nodes and the remaining labels as tag
// nodes.
var labelGraphCases = [][]string{
	{"-tagroot=worker", "cpu.pb.gz"},
	{"-tagleaf=worker,kind", "cpu.pb.gz"},
	{"-tagroot=kind", "-tagleaf=worker", "-nodecount=1000", "-nodefraction=0", "-edgefraction=0", "cpu.pb.gz"},
	{"-tagshow=worker", "cpu.pb.gz"},
	{"-taghide=worker", "cpu.pb.gz"},
	{"-tagroot=bytes", "-alloc_space", "heap.pb.gz"},
	{"-tagleaf=bytes", "-unit=kb", "heap.pb.gz"},
	{"-taghide=bytes", "heap.pb.gz"},
}

func init() { graphCases = append(graphCases, labelGraphCases...) }

// The label settings in the shell: set, listed, reset, with their
// warnings, replayed through both shells (testShell).
func init() {
	shellScripts["-tagroot=worker -nodecount=6 cpu.pb.gz"] = `top
tagleaf=kind
tree 4
traces
taghide=kind
traces
tagshow=nokey
tags
tagroot=
tagleaf=nokey
top3
tagshow=(
top3
q
`
}
