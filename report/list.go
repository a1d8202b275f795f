package report

import "io"

func (r *run) list(w io.Writer) error { return nil }
