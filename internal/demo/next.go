package demo

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// Names of the profiles Run writes to Options.ProfileDir.
const (
	naiveCPUFile    = "naive.cpu.pprof"
	naiveAllocsFile = "naive.allocs.pprof"
	tunedCPUFile    = "tuned.cpu.pprof"
)

// nextCommands returns the perflab command lines to try next on the
// profiles in dir, naming the functions the profiles found: the hottest
// workload function and the function of the biggest allocation site.
func nextCommands(dir, hottest string, sites []Site) []string {
	cpu := shellQuote(filepath.Join(dir, naiveCPUFile))
	allocs := shellQuote(filepath.Join(dir, naiveAllocsFile))
	tuned := shellQuote(filepath.Join(dir, tunedCPUFile))
	cmds := []string{
		"perflab top -cum -nodecount=20 " + cpu,
		"perflab list " + quoteAlways(funcRegexp(hottest)) + " " + cpu,
		"perflab peek " + quoteAlways(funcRegexp(hottest)) + " " + cpu,
	}
	if len(sites) > 0 && sites[0].Function != hottest {
		cmds = append(cmds, "perflab list "+quoteAlways(funcRegexp(sites[0].Function))+" "+cpu)
	}
	return append(cmds,
		"perflab top -sample_index=alloc_space -lines -show=examples/havlak "+allocs,
		"perflab top -diff_base="+cpu+" "+tuned,
	)
}

// funcRegexp returns the regular expression perflab list and peek take
// for the function fn (a full name), in the short form the Go blog uses,
// such as havlak.DFS; a method's parentheses and star are escaped.
func funcRegexp(fn string) string {
	name := shortName(fn)
	if strings.ContainsAny(name, "()*[]+?{}|^$\\") {
		return regexp.QuoteMeta(name)
	}
	return name
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+") == "" {
		return s
	}
	return quoteAlways(s)
}

// quoteAlways quotes s for a POSIX shell, as regular expressions are
// best quoted whatever they hold.
func quoteAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printNext ends the demo with the commands to try next.
func (d *demoRun) printNext() {
	dir := d.opts.ProfileDir
	if dir == "" {
		return
	}
	d.res.Next = nextCommands(dir, d.res.Hottest, d.res.Sites)
	d.section(fmt.Sprintf("8. Now read the profiles yourself (kept in %s)", dir))
	for _, c := range d.res.Next {
		d.printf("  %s\n", c)
	}
}
