package pprofproto_test

import (
	"bytes"
	"fmt"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/pprofproto"
)

func ExampleDecode() {
	fn := &profile.Function{ID: 1, Name: "main.work", Filename: "main.go"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn, Line: 12}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{30_000_000}}},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{fn},
	}
	var gz bytes.Buffer
	if err := p.Write(&gz); err != nil { // gzipped, as Go writes profiles
		panic(err)
	}
	raw, err := pprofproto.Gunzip(gz.Bytes(), 64<<20) // refuse more than 64 MiB
	if err != nil {
		panic(err)
	}
	q, err := pprofproto.Decode(raw)
	if err != nil {
		panic(err)
	}
	s := q.Sample[0]
	fmt.Println(s.Location[0].Line[0].Function.Name, s.Value[0])
	// Output: main.work 30000000
}
