package settings

import (
	"flag"
	"fmt"
	"io"

	"github.com/perflab/perflab/report"
)

// settingFlag is the flag.Value of one setting.
type settingFlag struct {
	s *Setting
	o *report.Options
}

func (f settingFlag) String() string {
	if f.o == nil {
		return ""
	}
	return f.s.Get(f.o)
}

func (f settingFlag) Set(v string) error { return f.s.Set(f.o, v) }
func (f settingFlag) IsBoolFlag() bool   { return f.s.IsBool() }

// RegisterFlags defines on fs a flag for every setting, with pprof's names,
// writing into o: -nodecount=10, -focus=main; a boolean flag per choice of
// a group (-lines, -cum); and sample_index's shortcuts (-inuse_space).
// After fs.Parse, call the returned function: it applies the choices and
// shortcuts, returns an error if two choices of a group are set, and
// writes pprof's warning for an ignored shortcut to warnings.
func RegisterFlags(fs *flag.FlagSet, o *report.Options) (resolve func(warnings io.Writer) error) {
	var groups [][]*bool
	var shortcuts []*bool
	for i := range settings {
		s := &settings[i]
		// A choice is a plain boolean: the group is resolved after parsing.
		var group []*bool
		for _, c := range s.Choices {
			group = append(group, fs.Bool(c.Name, false, c.Help))
		}
		groups = append(groups, group)
		for _, sc := range s.Shortcuts {
			shortcuts = append(shortcuts, fs.Bool(sc.Flag, false, "same as -"+s.Name+"="+sc.Value))
		}
		if s.Choices == nil {
			fs.Var(settingFlag{s, o}, s.Name, s.Help)
		}
	}
	return func(warnings io.Writer) error {
		k := 0
		for i := range settings {
			if err := resolveChoices(o, &settings[i], groups[i]); err != nil {
				return err
			}
			for _, sc := range settings[i].Shortcuts {
				resolveShortcut(o, &settings[i], sc, *shortcuts[k], warnings)
				k++
			}
		}
		return nil
	}
}

// resolveChoices sets group s to the one choice whose flag was set.
func resolveChoices(o *report.Options, s *Setting, set []*bool) error {
	var names []string
	for i, b := range set {
		if *b {
			names = append(names, s.Choices[i].Name)
		}
	}
	switch len(names) {
	case 0:
		return nil
	case 1:
		return s.Set(o, names[0])
	}
	return fmt.Errorf("conflicting options set: %v", names)
}

// resolveShortcut applies shortcut sc if its flag was set, unless the
// setting has a value already, as pprof does.
func resolveShortcut(o *report.Options, s *Setting, sc Shortcut, on bool, warnings io.Writer) {
	if !on {
		return
	}
	if s.Get(o) == s.Default() {
		s.Set(o, sc.Value)
	} else if warnings != nil {
		fmt.Fprintf(warnings, "Multiple value selections, ignoring -%s\n", sc.Flag)
	}
	if sc.Mean {
		o.Mean = true
	}
}
