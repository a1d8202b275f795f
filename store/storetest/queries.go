package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store"
)

// A query is one question the suite asks a store; answer renders the
// answer, or the kind of error, as text to compare.
type query struct {
	name   string
	answer func(ctx context.Context, r store.Reader) string
}

// selections returns the selections the suite asks about: every selector
// operator, edges of time ranges, every type of the fixture and one it
// lacks.
func selections() map[string]store.Selection {
	cpu, heap, allocs := kind("cpu"), kind("heap"), kind("allocs")
	goroutine := kind("goroutine")
	mid := Epoch.Add(50 * time.Minute)
	sels := map[string]store.Selection{
		"all types":          {},
		"cpu":                {Type: cpu},
		"cpu api":            {Type: cpu, Selector: sel(`{service_name="api"}`)},
		"cpu not api":        {Type: cpu, Selector: sel(`{service_name!="api"}`)},
		"cpu version regexp": {Type: cpu, Selector: sel(`{version=~"1\\.4[23].*"}`)},
		"cpu version 1.43":   {Type: cpu, Selector: sel(`{version=~"1\\.43.*"}`)},
		"cpu not 1.42":       {Type: cpu, Selector: sel(`{version!~"1\\.42.*"}`)},
		"cpu no version":     {Type: cpu, Selector: sel(`{version=""}`)},
		"cpu two matchers":   {Type: cpu, Selector: sel(`{service_name="api", instance!="api-1"}`)},
		"cpu name selector":  {Type: cpu, Selector: sel(`process_cpu{instance="db-1"}`)},
		"cpu no series":      {Type: cpu, Selector: sel(`{service_name="nope"}`)},
		"cpu from mid":       {Type: cpu, Start: mid},
		"cpu until mid":      {Type: cpu, End: mid},
		"cpu one slot":       {Type: cpu, Start: mid, End: mid.Add(time.Nanosecond)},
		"cpu empty range":    {Type: cpu, Start: mid, End: mid},
		"cpu before all":     {Type: cpu, End: Epoch},
		"cpu after all":      {Type: cpu, Start: Epoch.Add(3 * time.Hour)},
		"heap":               {Type: heap},
		"allocs (mixed)":     {Type: allocs},
		"allocs before push": {Type: allocs, End: Epoch.Add(55 * time.Minute)},
		"goroutine":          {Type: goroutine},
		"memory by name":     {Type: allocs, Selector: sel(`memory`)},
		"wrong name":         {Type: allocs, Selector: sel(`process_cpu`)},
		"absent type":        {Type: kind("mutex")},
		"all of api":         {Selector: sel(`{service_name="api"}`)},
		"all from mid":       {Start: mid},
	}
	return sels
}

func kind(short string) store.ProfileType {
	k, ok := store.LookupKind(short)
	if !ok {
		panic("storetest: no kind " + short)
	}
	return k.Type
}

func sel(s string) store.Selector {
	sel, err := store.ParseSelector(s)
	if err != nil {
		panic(err)
	}
	return sel
}

// detailed are the selections the suite asks every question about; of
// the others, it asks the main questions only.
var detailed = map[string]bool{"cpu": true, "cpu api": true, "cpu one slot": true, "allocs (mixed)": true, "all of api": true}

// queries returns the questions of the suite about the selections.
func queries(sels map[string]store.Selection) []query {
	var qs []query
	for name, s := range sels {
		qs = append(qs,
			query{"ProfileTypes " + name, func(ctx context.Context, r store.Reader) string { return show(r.ProfileTypes(ctx, s)) }},
			query{"LabelNames " + name, func(ctx context.Context, r store.Reader) string { return show(r.LabelNames(ctx, s)) }},
			query{"Series " + name, func(ctx context.Context, r store.Reader) string { return show(r.Series(ctx, s)) }},
			query{"Merge " + name, func(ctx context.Context, r store.Reader) string { return showProfile(r.Merge(ctx, s)) }},
		)
		labels, limits, totals := []string{"instance"}, []int{0}, totalsQueries(s)[:1]
		if detailed[name] {
			labels = []string{"instance", "version", "service_name", "__name__", "absent"}
			limits, totals = []int{0, 1, 5}, totalsQueries(s)
		}
		for _, label := range labels {
			qs = append(qs, query{"LabelValues " + label + " " + name, func(ctx context.Context, r store.Reader) string {
				return show(r.LabelValues(ctx, s, label))
			}})
		}
		for _, limit := range limits {
			qs = append(qs, query{fmt.Sprintf("Profiles limit %d %s", limit, name), func(ctx context.Context, r store.Reader) string {
				return showInfos(r.Profiles(ctx, s, limit))
			}})
		}
		for _, tq := range totals {
			qs = append(qs, query{fmt.Sprintf("Totals %s step %v by %v focus %v", name, tq.Step, tq.GroupBy, tq.Focus), func(ctx context.Context, r store.Reader) string {
				return showSeries(r.Totals(ctx, tq))
			}})
		}
	}
	qs = append(qs, query{"Profile of an unknown ID", func(ctx context.Context, r store.Reader) string {
		return showProfile(r.Profile(ctx, "0123456789abcdef"))
	}})
	return qs
}

// totalsQueries returns the Totals questions about s: steps that are and
// are not multiples of the profiles' interval, group-by, focus on a
// function, a file and a mapping's file, and a step that is not positive.
func totalsQueries(s store.Selection) []store.TotalsQuery {
	return []store.TotalsQuery{
		{Selection: s, Step: 10 * time.Minute},
		{Selection: s, Step: 7 * time.Minute, GroupBy: []string{"instance"}},
		{Selection: s, Step: time.Hour, GroupBy: []string{"version", "service_name"}},
		{Selection: s, Step: 25 * time.Minute, Focus: regexp.MustCompile(`runtime\.`)},
		{Selection: s, Step: 25 * time.Minute, Focus: regexp.MustCompile(`/internal/users/`), GroupBy: []string{"instance"}},
		{Selection: s, Step: 25 * time.Minute, Focus: regexp.MustCompile(`^/app/db$`)},
		{Selection: s, Step: 25 * time.Minute, Focus: regexp.MustCompile(`^no such frame$`)},
		{Selection: s, Step: 0},
	}
}

// show renders an answer, or the kind of its error.
func show[T any](v T, err error) string {
	if err != nil {
		return showError(err)
	}
	return fmt.Sprintf("%v", v)
}

// showError renders the kind of err: the store's sentinel errors it
// wraps. Backends word their errors differently, and may say more.
func showError(err error) string {
	if err == nil {
		return "ok"
	}
	var kinds []string
	for _, e := range []error{store.ErrNotFound, store.ErrLimit, store.ErrBusy, store.ErrInvalid, context.Canceled} {
		if errors.Is(err, e) {
			kinds = append(kinds, e.Error())
		}
	}
	if kinds == nil {
		return "error: " + err.Error()
	}
	return "error: " + strings.Join(kinds, ", ")
}

func showInfos(infos []store.ProfileInfo, err error) string {
	if err != nil {
		return showError(err)
	}
	var b strings.Builder
	for _, in := range infos {
		fmt.Fprintf(&b, "%s %s %d %v %d\n", in.ID, in.Labels, in.Time.UnixNano(), in.Duration, in.Total)
	}
	return b.String()
}

// showProfile renders a profile by the SHA-256 of its encoding (not
// compressed: the same bytes compress alike), with a
// few of its figures to tell what differs.
func showProfile(p *profile.Profile, err error) string {
	if err != nil {
		return showError(err)
	}
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		return "error writing the profile: " + err.Error()
	}
	sums := make([]int64, len(p.SampleType))
	for _, s := range p.Sample {
		for i, v := range s.Value {
			sums[i] += v
		}
	}
	var types []string
	for _, st := range p.SampleType {
		types = append(types, st.Type+"/"+st.Unit)
	}
	return fmt.Sprintf("%d samples, %d locations, %d functions, %d mappings, types %v, totals %v, sha256 %x",
		len(p.Sample), len(p.Location), len(p.Function), len(p.Mapping), types, sums, sha256.Sum256(b.Bytes()))
}

func showSeries(series []store.TimeSeries, err error) string {
	if err != nil {
		return showError(err)
	}
	var b strings.Builder
	for _, ts := range series {
		fmt.Fprintf(&b, "%s:", ts.Labels)
		for _, p := range ts.Points {
			fmt.Fprintf(&b, " %d=%d", p.Time.UnixNano(), p.Value)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
