package viewer

// ProfileBytes is profileBytes, for the tests of the cache's bound.
var ProfileBytes = profileBytes
