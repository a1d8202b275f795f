// Package pprofproto decodes profile.proto quickly.
//
// Decode produces exactly the *profile.Profile that
// github.com/google/pprof/profile.ParseData produces for the same bytes:
// the same structs, the same pointer sharing between samples, locations,
// mappings and functions, the same label maps and string values. It gets
// there with far fewer allocations: samples, locations, lines and
// functions are carved out of a few large arrays, every string of the
// string table lives in one allocation, and fields are read by a
// hand-written loop over the wire format instead of a table of closures.
//
// Decode handles the common case, a well-formed profile.proto, itself. Any
// input it does not accept — legacy text profiles, malformed or invalid
// protos — is handed to profile.ParseData, so errors and the legacy formats
// behave exactly as in pprof.
//
// Gunzip and GunzipWithin decompress a gzipped profile with a cap on the
// decompressed size, reading it into one buffer sized from the gzip
// trailer. ReadAll, under them, reads any input within a Quota that
// several readers may share, growing its buffer by chunks rather than by
// doubling, so that input beyond the Quota is refused after allocating no
// more than the Quota.
package pprofproto
