// Package browsertest holds perflab's tests that need more than the main
// module's dependencies: headless Chromium, driven through chromedp, to
// check that the HTML pages perflab writes draw their charts, and the chi
// router, to check that collect's handler mounts on a third-party router.
//
// It is a module of its own, as google/pprof does with its browser tests,
// so that programs importing perflab's packages do not inherit chromedp
// or chi. Its go.mod replaces github.com/perflab/perflab with the
// enclosing directory, so it always tests the code beside it. Run it with
//
//	cd browsertest && go test ./...
//
// which scripts/test does.
package browsertest
