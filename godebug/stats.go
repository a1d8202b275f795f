package godebug

import (
	"math"
	"slices"
)

// percentile returns the nearest-rank p-th percentile (0 < p <= 100) of
// xs: the smallest value with at least p% of the values at or below it.
// It sorts xs in place and returns 0 for an empty slice.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	rank := int(math.Ceil(p / 100 * float64(len(xs))))
	return xs[min(max(rank, 1), len(xs))-1]
}

// A fit is a least-squares line y = Intercept + Slope*x.
type fit struct {
	Slope, Intercept float64
	R2               float64 // coefficient of determination; 0 when y is constant
}

// leastSquares fits a line through the points (xs[i], ys[i]).
func leastSquares(xs, ys []float64) fit {
	n := float64(len(xs))
	if len(xs) < 2 {
		return fit{}
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= n
	my /= n
	var sxx, sxy, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return fit{Intercept: my}
	}
	f := fit{Slope: sxy / sxx}
	f.Intercept = my - f.Slope*mx
	if syy > 0 {
		f.R2 = sxy * sxy / (sxx * syy)
	}
	return f
}

// A decimator keeps every stride-th item of a stream, doubling the stride
// (and dropping every other kept item) whenever limit items are held, so
// that an unbounded stream leaves a bounded, evenly spread sample. Its
// zero value holds maxPoints items.
type decimator struct {
	limit  int
	stride int
	seen   int
}

// thin offers x, the next item of d's stream, to xs, the items kept so
// far, and returns what is kept.
func thin[T any](d *decimator, xs []T, x T) []T {
	if d.stride == 0 {
		d.stride = 1
	}
	if d.limit == 0 {
		d.limit = maxPoints
	}
	keep := d.seen%d.stride == 0
	d.seen++
	if !keep {
		return xs
	}
	xs = append(xs, x)
	if len(xs) >= d.limit {
		d.stride *= 2
		xs = halve(xs)
	}
	return xs
}

// halve keeps the items of xs at even positions.
func halve[T any](xs []T) []T {
	j := 0
	for i := 0; i < len(xs); i += 2 {
		xs[j] = xs[i]
		j++
	}
	clear(xs[j:])
	return xs[:j]
}
