package serverbench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is Linux's USER_HZ, the unit of /proc's CPU times: 100 on
// every architecture Go runs on.
const clockTicks = 100

// ReadUsage reads process pid's usage from /proc/PID/stat (utime and
// stime) and /proc/PID/status (VmRSS and VmHWM).
func ReadUsage(pid int) (Usage, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Usage{}, fmt.Errorf("serverbench: %w", err)
	}
	// The command, in parentheses, may hold spaces: count fields after it.
	i := bytes.LastIndexByte(stat, ')')
	fields := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(fields) < 13 {
		return Usage{}, fmt.Errorf("serverbench: %s/stat: %d fields, want utime and stime", dir, len(fields))
	}
	var u Usage
	for _, f := range fields[11:13] { // fields 14 and 15, utime and stime
		ticks, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return Usage{}, fmt.Errorf("serverbench: %s/stat: %w", dir, err)
		}
		u.CPU += time.Duration(ticks) * time.Second / clockTicks
	}
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return Usage{}, fmt.Errorf("serverbench: %w", err)
	}
	for line := range strings.Lines(string(status)) {
		name, value, _ := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			u.RSS = kb << 10
		case "VmHWM":
			u.PeakRSS = kb << 10
		}
	}
	if u.PeakRSS == 0 {
		return Usage{}, fmt.Errorf("serverbench: %s/status: no VmHWM", dir)
	}
	return u, nil
}
