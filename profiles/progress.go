package profiles

import "time"

// A FetchProgress tells how a fetch from a URL goes: Options.Progress
// receives one when the request starts, one about every second while it
// waits for the server, and a last one, Done, when it ends.
type FetchProgress struct {
	URL     string        // the URL fetched
	Seconds int           // how long the server collects the profile; 0 if not known
	Elapsed time.Duration // since the request started
	Done    bool          // the fetch has ended, in success or failure
}

// startProgress calls progress, if not nil, now and every second for the
// fetch of u, until the returned stop is called; stop calls it a last
// time with Done set.
func startProgress(progress func(FetchProgress), u string, seconds int) (stop func()) {
	if progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			progress(FetchProgress{URL: u, Seconds: seconds, Elapsed: time.Since(start)})
			select {
			case <-done:
				progress(FetchProgress{URL: u, Seconds: seconds, Elapsed: time.Since(start), Done: true})
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
