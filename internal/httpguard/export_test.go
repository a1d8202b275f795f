package httpguard

// SetStallPause sets stallPause for a test, until the test's cleanup.
func SetStallPause(t interface{ Cleanup(func()) }, f func()) {
	stallPause = f
	t.Cleanup(func() { stallPause = nil })
}
