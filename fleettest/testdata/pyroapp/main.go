// Command pyroapp is a program instrumented with Grafana Pyroscope's Go
// SDK, as a user would write it, for fleettest's tests: it pushes its
// profiles to $SERVER every $UPLOAD_RATE while it works for $RUN_FOR,
// then stops the SDK (which sends the last ones) and exits. With
// $AUTH_PASSWORD it authenticates as $AUTH_USER with Basic
// authentication, as the SDK's users of a server with a token do.
package main

import (
	"log"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/grafana/pyroscope-go"
)

var sink [][]byte

//go:noinline
func work(until time.Time) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(until) {
				mu.Lock()
				sink = append(sink, make([]byte, 1024))
				if len(sink) > 1000 {
					sink = sink[:0]
				}
				mu.Unlock()
				n := 0
				for i := range 20000 {
					n += i
				}
			}
		}()
	}
	wg.Wait()
}

func main() {
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	rate, err := time.ParseDuration(os.Getenv("UPLOAD_RATE"))
	if err != nil {
		log.Fatal(err)
	}
	runFor, err := time.ParseDuration(os.Getenv("RUN_FOR"))
	if err != nil {
		log.Fatal(err)
	}
	p, err := pyroscope.Start(pyroscope.Config{
		ApplicationName:   "fleet-app",
		ServerAddress:     os.Getenv("SERVER"),
		BasicAuthUser:     os.Getenv("AUTH_USER"),
		BasicAuthPassword: os.Getenv("AUTH_PASSWORD"),
		UploadRate:        rate,
		Tags:              map[string]string{"region": "eu-1", "version": "1.0.0"},
		ProfileTypes: []pyroscope.ProfileType{
			pyroscope.ProfileCPU, pyroscope.ProfileAllocObjects, pyroscope.ProfileAllocSpace,
			pyroscope.ProfileInuseObjects, pyroscope.ProfileInuseSpace, pyroscope.ProfileGoroutines,
			pyroscope.ProfileMutexCount, pyroscope.ProfileMutexDuration,
			pyroscope.ProfileBlockCount, pyroscope.ProfileBlockDuration,
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	work(time.Now().Add(runFor))
	if err := p.Stop(); err != nil {
		log.Fatal(err)
	}
}
