package collect

// OnTraceDone has f told, as each served trace stops, the most it kept on
// the heap.
func OnTraceDone(f func(peak int64)) { traceDone = f }
