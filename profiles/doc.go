// Package profiles loads Go profiles from files and URLs: it decodes
// profile.proto (gzipped or not) and the legacy text formats, fetches from
// /debug/pprof/ endpoints, merges several sources, applies a base profile,
// and symbolizes addresses from a local binary. Every report perflab prints
// starts from the *profile.Profile that Load returns.
package profiles
