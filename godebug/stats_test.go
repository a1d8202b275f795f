package godebug

import (
	"slices"
	"testing"
)

func TestThin(t *testing.T) {
	d := decimator{limit: 4}
	var kept []int
	for i := range 20 {
		kept = thin(&d, kept, i)
		if len(kept) >= d.limit {
			t.Fatalf("after %d: holds %v, limit %d", i, kept, d.limit)
		}
	}
	// Four held at 3, 6 and 12 halved the sample: every 8th item is left.
	if want := []int{0, 8, 16}; !slices.Equal(kept, want) || d.stride != 8 {
		t.Errorf("kept %v with stride %d, want %v with stride 8", kept, d.stride, want)
	}

	var zero decimator
	if thin(&zero, nil, 1); zero.limit != maxPoints {
		t.Errorf("zero decimator: limit %d, want maxPoints", zero.limit)
	}
}
