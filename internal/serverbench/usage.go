package serverbench

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Usage is what a process has used, as the system tells it.
type Usage struct {
	// CPU is its user and system CPU time.
	CPU time.Duration
	// RSS and PeakRSS are its resident set size, now and at its highest,
	// in bytes.
	RSS, PeakRSS int64
}

// clockTicks is Linux's USER_HZ, the unit of /proc's CPU times: 100 on
// every architecture Go runs on.
const clockTicks = 100

// maxTicks bounds each of stat's two CPU times so that their sum in
// nanoseconds fits a time.Duration (about 1,460 years each).
const maxTicks = math.MaxInt64 / 2 / int64(time.Second/clockTicks)

// parseStat returns the user and system CPU time of Linux's
// /proc/PID/stat: its fields 14 and 15, in clock ticks, counted after
// the command, which is in parentheses and may hold spaces and
// parentheses of its own.
func parseStat(stat []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("stat: no command in parentheses")
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("stat: %d fields after the command, want at least 13", len(fields))
	}
	var cpu time.Duration
	for _, f := range fields[11:13] {
		ticks, err := strconv.ParseInt(f, 10, 64)
		if err != nil || ticks < 0 || ticks > maxTicks {
			return 0, fmt.Errorf("stat: CPU time %q: want a count of clock ticks", f)
		}
		cpu += time.Duration(ticks) * (time.Second / clockTicks)
	}
	return cpu, nil
}

// parseStatus returns VmRSS and VmHWM of Linux's /proc/PID/status, in
// bytes.
func parseStatus(status []byte) (rss, peak int64, err error) {
	for line := range strings.Lines(string(status)) {
		name, value, _ := strings.Cut(line, ":")
		if name != "VmRSS" && name != "VmHWM" {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil || kb < 0 || kb > 1<<40 {
			return 0, 0, fmt.Errorf("status: %s %q: want a size in kB", name, strings.TrimSpace(value))
		}
		if name == "VmRSS" {
			rss = kb << 10
		} else {
			peak = kb << 10
		}
	}
	if peak == 0 {
		return 0, 0, errors.New("status: no VmHWM")
	}
	return rss, peak, nil
}
