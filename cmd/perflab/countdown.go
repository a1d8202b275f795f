package main

import (
	"fmt"
	"io"
	"time"

	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/profiles"
)

// countdown returns the profiles.Options.Progress that draws, on stderr if
// it is a terminal, how long a server has left to collect a profile, and
// clears the line when the fetch ends; nil if stderr is not a terminal.
func countdown(stderr io.Writer) func(profiles.FetchProgress) {
	line := term.NewLine(stderr)
	if !line.Enabled() {
		return nil
	}
	return func(p profiles.FetchProgress) {
		if p.Done {
			line.Clear()
			return
		}
		line.Printf("%s", countdownText(p.URL, p.Seconds, p.Elapsed))
	}
}

// countdownText is the status line shown elapsed into a fetch.
func countdownText(u string, seconds int, elapsed time.Duration) string {
	el := int(elapsed / time.Second)
	switch {
	case seconds <= 0:
		return fmt.Sprintf("Fetching %s ... %ds", u, el)
	case el < seconds:
		return fmt.Sprintf("Fetching %s: collecting, %ds left", u, seconds-el)
	default:
		return fmt.Sprintf("Fetching %s: collected, waiting for the server", u)
	}
}
