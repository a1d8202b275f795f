// Package dirstore is perflab server's embedded store: a store.Store in a
// directory, with no other process to run. It keeps profiles in package
// store's canonical form, so that its answers are byte for byte those of
// store/storetest's Reference (and of the ClickHouse store).
//
// # The directory
//
//	DIR/LOCK                       held (flock, LockFileEx) while a process has the store open
//	DIR/wal/NUMBER.wal             the write-ahead log, in segments
//	DIR/YYYY-MM-DD/NUMBER.blk      the blocks of one day (UTC): profiles, compacted
//	DIR/YYYY-MM-DD/NUMBER.rlp      the rollups of the block of that number
//
// No file or directory name comes from a profile or a label: they are
// numbers and dates.
//
// # Writes
//
// Write checks and splits its profiles (see store.Split) in the caller's
// goroutine, then hands them to the committer, which appends the records
// of every Write waiting at the time to the WAL in one chunk, syncs it
// once (group commit), and only then makes them visible and returns: a
// profile Write acknowledged survives a kill -9 or a power cut. A chunk
// carries its length and a CRC-32C; the chunk a crash cut short at the
// end of the WAL is dropped when the store opens, with a log line.
//
// The head, what the store holds in memory of the WAL, is small: the
// parts, header templates and series each segment numbers, and about 180
// bytes for each profile (its time, ID, totals and where its samples are
// in the segment); the samples stay on disk. Blocks take no memory for
// each profile: the index of a block in memory takes about 200 bytes for
// each of its series. Writes waiting for the
// committer and the head count against Limits.MemoryBudget; beyond it,
// and when compaction falls behind, Write returns store.ErrBusy.
//
// # Compaction
//
// A segment is closed when it reaches Options.SegmentBytes or
// Options.SegmentAge, and a background goroutine compacts it into a
// block for each day its profiles fall in, then removes it. A block has
// a section for each service, with a dictionary of the parts of the
// service's profiles (functions, mappings, locations, stacks, label sets
// and header templates, each once, in their canonical encoding, sorted
// by hash), so that the profiles of a series, and the series of a
// service, share them. A profile is its times, ID and header template,
// and its samples: stack and label set ordinals in the dictionary, as
// differences, then each column of values divided by its greatest common
// divisor, all varints, in pages compressed with zstd. On the profiles of
// internal/fleetgen, a block costs about a twentieth of the gzipped pprof
// files it holds.
//
// Blocks of a day are merged, four of about the same size at a time,
// and, once the day is over, into as few as Options.MaxBlockProfiles
// allows. A block and its rollups are written under temporary names,
// synced and renamed; the inputs (a segment, merged blocks) are removed
// after, and a block names them, so that opening the store after a crash
// puts things right: temporary files are removed, blocks merged into
// another are removed, blocks compacted from a segment still there are
// removed and the segment compacted again.
//
// # Rollups
//
// A block's rollup file holds, for each series and header template, the
// sum of its profiles by hour, and over the whole block: their merged
// header (store.MergedHeader) and their samples summed by stack and
// label set. Merge and Totals take a rollup wherever the range holds all
// its profiles, and read profiles only at the edges of the range and in
// the WAL, so that the cost of a query grows with the distinct stacks of
// the range, not with its profiles: a week of one service is seven
// rollups. Rollups are derived data: a missing or corrupt rollup file is
// read around and rebuilt from the block, with a log line.
//
// # Retention
//
// DropBefore(t) removes the directories of the days before t's (UTC),
// at once, and the WAL's profiles of those days; it keeps t's day whole.
// A record in the WAL makes the drop survive a crash.
//
// # Corrupt files
//
// Every file has a magic string, every blob a CRC-32C that is checked
// before it is decompressed, and every decoder refuses what is not what
// the store writes (see FuzzDecoders and FuzzOpen). A block that cannot
// be read refuses Open with one line naming it; a corrupt page or
// dictionary fails the queries that read it, naming the file; a damaged
// WAL chunk anywhere but at the end refuses Open. Nothing panics.
package dirstore
