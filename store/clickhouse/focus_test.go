package clickhouse

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// TestFocusReadsRollups writes profiles over three days, then drops the
// raw samples of the second day, which the rollups still hold: Totals
// with a Focus, by day and by hour, must answer as a Reference holding
// every sample does, which it can only do from the rollups (it read the
// samples of the whole range before). A few seconds.
func TestFocusReadsRollups(t *testing.T) {
	t.Parallel()
	topologies(t, func(t *testing.T, rawURL string) {
		st := open(t, rawURL)
		ref := storetest.NewReference(store.Limits{})
		ctx := context.Background()
		fixture := storetest.Fixture()
		for day := range 3 {
			var ps []store.Profile
			for i, p := range fixture[:12] {
				p.Time = storetest.Epoch.Add(time.Duration(day)*24*time.Hour + time.Duration(i)*17*time.Minute)
				ps = append(ps, p)
			}
			for _, s := range []store.Store{st, ref} {
				if err := s.Write(ctx, ps...); err != nil {
					t.Fatal(err)
				}
			}
		}
		second := storetest.Epoch.Add(24 * time.Hour)
		sc := schema{db: st.cfg.Database, cluster: st.cfg.Cluster}
		for _, s := range shardServers(t, st) {
			s.MustQuery(t, st.cfg.Database, fmt.Sprintf("ALTER TABLE %s DROP PARTITION %d", sc.local("samples"), second.UnixNano()/dayNanos))
		}
		cpu, _ := store.LookupKind("cpu")
		for _, q := range []store.TotalsQuery{
			{Selection: store.Selection{Type: cpu.Type}, Step: 24 * time.Hour, Focus: regexp.MustCompile(`runtime\.`)},
			{Selection: store.Selection{Type: cpu.Type, Start: second.Add(-30 * time.Minute), End: second.Add(25 * time.Hour)}, Step: time.Hour,
				Focus: regexp.MustCompile(`/internal/users/`), GroupBy: []string{"instance"}},
			{Selection: store.Selection{Type: cpu.Type}, Step: 48 * time.Hour, Focus: regexp.MustCompile(`^/app/db$`)},
		} {
			got, err := st.Totals(ctx, q)
			want, _ := ref.Totals(ctx, q)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) || len(want) == 0 {
				t.Errorf("Totals step %v focus %v: %v, %v\nwant the reference's %v", q.Step, q.Focus, got, err, want)
			}
		}
	})
}

// TestFocusMappingFiles checks Totals with a Focus on the file of a
// mapping that two profiles of one binary (the same build ID) name
// differently: whether a stack matches depends on its profile, so the
// samples are read one by one, and the answer is the Reference's.
func TestFocusMappingFiles(t *testing.T) {
	t.Parallel()
	st := open(t, nodeURL(t))
	ref := storetest.NewReference(store.Limits{})
	ctx := context.Background()
	a := storetest.Fixture()[0]
	b := a
	b.Profile = a.Profile.Copy()
	b.Profile.Mapping[0].File = "/releases/renamed"
	b.Time = a.Time.Add(90 * time.Minute)
	for _, s := range []store.Store{st, ref} {
		if err := s.Write(ctx, a, b); err != nil {
			t.Fatal(err)
		}
	}
	cpu, _ := store.LookupKind("cpu")
	for _, focus := range []string{`^/releases/`, `^/app/`, `runtime\.`} {
		q := store.TotalsQuery{Selection: store.Selection{Type: cpu.Type}, Step: time.Hour, Focus: regexp.MustCompile(focus)}
		got, err := st.Totals(ctx, q)
		want, _ := ref.Totals(ctx, q)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Totals focus %s: %v, %v\nwant the reference's %v", focus, got, err, want)
		}
	}
}

// TestSameMatch checks when a stack's match does not depend on its
// profile: each mapping key's file matches in every profile or in none.
func TestSameMatch(t *testing.T) {
	k1, k2 := store.Hash(1), store.Hash(2)
	files := map[uint64]map[store.Hash]string{
		10: {k1: "/app/api", k2: "[vdso]"},
		20: {k1: "/releases/api", k2: "[vdso]"},
		30: {k1: "/app/api"}, // no k2: its stacks have no frame of k2
		40: {k2: "[vdso-2]"},
	}
	for _, tc := range []struct {
		re   string
		same bool
	}{
		{`runtime\.`, true}, // no file matches
		{`api$`, true},      // k1 matches everywhere, k2 nowhere
		{`^/app/`, false},   // k1 in 10 and 30, not in 20
		{`vdso\]`, false},   // k2 in 10 and 20, not in 40
		{`vdso`, true},      // k2 wherever it is
	} {
		if _, same := sameMatch(files, regexp.MustCompile(tc.re)); same != tc.same {
			t.Errorf("sameMatch(%s) = %v, want %v", tc.re, same, tc.same)
		}
	}
}
