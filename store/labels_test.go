package store

import (
	"errors"
	"strings"
	"testing"
)

func TestLabels(t *testing.T) {
	ls := NewLabels("service_name", "api", "__name__", "process_cpu", "pod", "a-1")
	if got, want := ls.String(), `{__name__="process_cpu", pod="a-1", service_name="api"}`; got != want {
		t.Errorf("NewLabels = %s, want %s", got, want)
	}
	if got := ls.With("pod", "b").Get("pod"); got != "b" {
		t.Errorf("With(pod, b).Get(pod) = %q", got)
	}
	if got := ls.Get("pod"); got != "a-1" {
		t.Errorf("With changed the original: pod = %q", got)
	}
	if got := ls.Without("pod").String(); got != `{__name__="process_cpu", service_name="api"}` {
		t.Errorf("Without(pod) = %s", got)
	}
	sorted := Labels{{"b", "1"}, {"a", "1"}, {"b", "2"}}.Sort()
	if got := sorted.String(); got != `{a="1", b="2"}` {
		t.Errorf("Sort = %s, want the last of two b", got)
	}
	if ls.Compare(ls.Without("pod")) >= 0 == (ls.Without("pod").Compare(ls) >= 0) {
		t.Errorf("Compare is not antisymmetric")
	}
	if err := ls.Check(Limits{}); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestLabelsCheck(t *testing.T) {
	base := NewLabels("__name__", "process_cpu", "service_name", "api")
	many := base
	for i := range 40 {
		many = many.With("l"+strings.Repeat("x", i), "v")
	}
	for _, tc := range []struct {
		ls  Labels
		err string
	}{
		{NewLabels("__name__", "process_cpu"), "service_name missing"},
		{base.With("9x", "v"), "not [a-zA-Z_]"},
		{base.With("x", strings.Repeat("v", 3000)), "value of 3000 bytes"},
		{many, "more than the limit of 30"},
		{Labels{{"service_name", "a"}, {"__name__", "b"}}, "not sorted"},
	} {
		err := tc.ls.Check(Limits{})
		if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrLimit) {
			t.Errorf("Check(%.60s) = %v, want ErrLimit with %q", tc.ls, err, tc.err)
		}
	}
}
