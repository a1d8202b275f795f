package profiles

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestErrorsKeepTheirChain checks that Load's errors wrap their causes:
// a caller can ask errors.Is for a missing file, a cancelled context
// (for a file and for a URL being fetched), and ErrTooLarge, while the
// messages stay one line naming the source.
func TestErrorsKeepTheirChain(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nosuch.pb.gz")
	good := filepath.Join(dir, "good.pb.gz")
	if err := os.WriteFile(good, ownProfile(t, "goroutine", 0), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := pprofServer(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	_, err := Load(context.Background(), []string{missing}, Options{})
	checkError(t, nil, err, missing+": ", "no such file, and not a URL")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing file) = %v; want it to wrap fs.ErrNotExist", err)
	}
	for _, src := range []string{good, srv.URL + "/slow"} {
		_, err := Load(cancelled, []string{src}, Options{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Load(%s) with a cancelled context = %v; want it to wrap context.Canceled", src, err)
		}
	}
	// Cancelled while the server is still answering.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	slow := srv.URL + "/slow"
	_, err = Load(ctx, []string{slow}, Options{})
	checkError(t, nil, err, slow+": ", "context canceled")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Load(%s) cancelled during the fetch = %v; want it to wrap context.Canceled", slow, err)
	}
}
