package serverbench

import (
	"fmt"
	"os"
	"strconv"
)

// ReadUsage reads process pid's usage from /proc/PID/stat (utime and
// stime) and /proc/PID/status (VmRSS and VmHWM).
func ReadUsage(pid int) (Usage, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Usage{}, fmt.Errorf("serverbench: %w", err)
	}
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return Usage{}, fmt.Errorf("serverbench: %w", err)
	}
	var u Usage
	if u.CPU, err = parseStat(stat); err == nil {
		u.RSS, u.PeakRSS, err = parseStatus(status)
	}
	if err != nil {
		return Usage{}, fmt.Errorf("serverbench: %s/%w", dir, err)
	}
	return u, nil
}
