package pprofproto

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/pprof/profile"
)

// sameProfile reports how want and got differ, comparing every exported
// field, nil against empty slices and maps, and pointer sharing: two
// pointers of want that are the same must be the same in got, and the
// other way round. Unexported fields (pprof's scratch indexes) are not
// compared.
func sameProfile(want, got any) error {
	c := comparer{pairs: map[uintptr]uintptr{}, back: map[uintptr]uintptr{}}
	return c.compare("Profile", reflect.ValueOf(want), reflect.ValueOf(got))
}

type comparer struct {
	pairs, back map[uintptr]uintptr
}

func (c *comparer) compare(path string, a, b reflect.Value) error {
	if a.Kind() != b.Kind() {
		return fmt.Errorf("%s: kind %v vs %v", path, a.Kind(), b.Kind())
	}
	switch a.Kind() {
	case reflect.Pointer:
		return c.comparePointer(path, a, b)
	case reflect.Struct:
		for i := range a.NumField() {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			name := path + "." + a.Type().Field(i).Name
			if err := c.compare(name, a.Field(i), b.Field(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Errorf("%s: nil %v len %d vs nil %v len %d", path, a.IsNil(), a.Len(), b.IsNil(), b.Len())
		}
		for i := range a.Len() {
			if err := c.compare(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Errorf("%s: nil %v len %d vs nil %v len %d", path, a.IsNil(), a.Len(), b.IsNil(), b.Len())
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Errorf("%s: key %v missing", path, k)
			}
			if err := c.compare(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), bv); err != nil {
				return err
			}
		}
		return nil
	case reflect.Interface:
		return c.compare(path, a.Elem(), b.Elem())
	}
	if !a.CanInterface() || !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Errorf("%s: %v vs %v", path, a, b)
	}
	return nil
}

func (c *comparer) comparePointer(path string, a, b reflect.Value) error {
	if a.IsNil() || b.IsNil() {
		if a.IsNil() != b.IsNil() {
			return fmt.Errorf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
		}
		return nil
	}
	pa, pb := a.Pointer(), b.Pointer()
	if q, ok := c.pairs[pa]; ok {
		if q != pb {
			return fmt.Errorf("%s: pointer sharing differs", path)
		}
		return nil
	}
	if _, ok := c.back[pb]; ok {
		return fmt.Errorf("%s: pointer sharing differs", path)
	}
	c.pairs[pa], c.back[pb] = pb, pa
	return c.compare(path, a.Elem(), b.Elem())
}

// TestSameProfileDetects checks that the comparison behind every Decode
// test notices the differences that matter.
func TestSameProfileDetects(t *testing.T) {
	changes := map[string]func(p *profile.Profile){
		"label value":        func(p *profile.Profile) { p.Sample[0].Label["b"][0] = "other" },
		"nil vs empty":       func(p *profile.Profile) { p.Sample[2].Location = nil },
		"unit":               func(p *profile.Profile) { p.Sample[0].NumUnit["bytes"][1] = "" },
		"location unshared":  func(p *profile.Profile) { c := *p.Location[0]; p.Sample[0].Location[0] = &c },
		"function unshared":  func(p *profile.Profile) { c := *p.Function[0]; p.Location[2].Line[0].Function = &c },
		"kernel relocation":  func(p *profile.Profile) { p.Mapping[1].KernelRelocationSymbol = "" },
		"missing num unit":   func(p *profile.Profile) { p.Sample[0].NumUnit = nil },
		"period type absent": func(p *profile.Profile) { p.PeriodType = nil },
	}
	for name, change := range changes {
		want, got := decoded(t), decoded(t)
		change(got)
		if err := sameProfile(want, got); err == nil {
			t.Errorf("%s: sameProfile found no difference", name)
		}
	}
	if err := sameProfile(decoded(t), decoded(t)); err != nil {
		t.Errorf("two decodings differ: %v", err)
	}
}

func decoded(t *testing.T) *profile.Profile {
	p, err := Decode(encode(t, fullProfile()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
