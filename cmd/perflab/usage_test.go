package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageListsEveryFlag: "perflab help NAME" (and NAME -h) shows every
// flag the command defines, with its help, because the usage is derived
// from the flags (issue 22, step 5). In process; milliseconds.
func TestUsageListsEveryFlag(t *testing.T) {
	ctx := context.Background()
	for _, c := range commands {
		for _, argv := range commandLines(c) {
			var out bytes.Buffer
			err := dispatch(ctx, strings.NewReader(""), &out, &out, append(argv, "-h"))
			fs := definedFlags(t, c, argv)
			if err != nil || fs == nil {
				t.Errorf("perflab %s -h: %v", strings.Join(argv, " "), err)
				continue
			}
			var help bytes.Buffer
			if err := dispatch(ctx, strings.NewReader(""), &help, &help, []string{"help", argv[0]}); err != nil {
				t.Errorf("perflab help %s: %v", argv[0], err)
			}
			fs.VisitAll(func(f *flag.Flag) {
				_, text := flag.UnquoteUsage(f)
				first := strings.Fields(text)
				if len(first) == 0 {
					t.Errorf("perflab %s: flag -%s has no help", strings.Join(argv, " "), f.Name)
					return
				}
				if !strings.Contains(out.String(), "  -"+f.Name) || !strings.Contains(out.String(), first[0]) {
					t.Errorf("perflab %s -h does not show -%s (%q):\n%s", strings.Join(argv, " "), f.Name, text, out.String())
				}
				if len(argv) == 1 && help.String() != out.String() {
					t.Errorf("perflab help %s differs from perflab %s -h", argv[0], argv[0])
				}
			})
		}
	}
}

// commandLines lists the command lines that reach c and its subcommands.
func commandLines(c *command) [][]string {
	lines := [][]string{{c.name}}
	for _, s := range c.subs {
		lines = append(lines, strings.Fields(s.name))
	}
	return lines
}

// definedFlags runs the command line argv with -h and returns the
// FlagSet it defined.
func definedFlags(t *testing.T, c *command, argv []string) *flag.FlagSet {
	var err error
	var out bytes.Buffer
	if c == helpCmd {
		err = runHelp(context.Background(), strings.NewReader(""), &out, &out, []string{"-h"})
	} else {
		err = c.run(context.Background(), strings.NewReader(""), &out, &out, append(argv[1:], "-h"))
	}
	var hr *helpRequest
	if !errors.As(err, &hr) {
		t.Errorf("perflab %s -h returned %v, not a help request", strings.Join(argv, " "), err)
		return nil
	}
	return hr.fs
}

// TestNoInitWiring: commands are plain values; no init function wires a
// run function into its command (issue 22, step 5).
func TestNoInitWiring(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				t.Errorf("%s: func init at %s", name, fset.Position(fd.Pos()))
			}
		}
	}
}
