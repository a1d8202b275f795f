package collect

// OnTraceDone has f told, as each served trace stops, the most it held
// and kept on the heap, added.
func OnTraceDone(f func(peak int64)) { traceDone = f }
