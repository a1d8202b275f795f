package program

import (
	"slices"
	"strings"
	"testing"
)

func TestParseGoPlan(t *testing.T) {
	for _, tt := range []struct {
		argv              string
		build, pkgs, args []string
		err               string
	}{
		{argv: "./server -addr :0"},
		{argv: "go version"},
		{argv: "go test", pkgs: []string{"."}},
		{argv: "go test -race -tags=x,y -count 1 -v -run TestBig ./pkg -benchtime=2x -args -custom 3",
			build: []string{"-race", "-tags=x,y"}, pkgs: []string{"./pkg"},
			args: []string{"-test.count", "1", "-test.v", "-test.run", "TestBig", "-test.benchtime=2x", "-custom", "3"}},
		{argv: "go test -coverprofile c.out -vet=off -mystery ./pkg", build: []string{"-cover"}, pkgs: []string{"./pkg"},
			args: []string{"-test.coverprofile", "c.out", "-mystery"}},
		{argv: "go run -gcflags -m main.go util.go -v x", build: []string{"-gcflags", "-m"},
			pkgs: []string{"main.go", "util.go"}, args: []string{"-v", "x"}},
		{argv: "go run -v ./cmd/server -addr :0", build: []string{"-v"}, pkgs: []string{"./cmd/server"}, args: []string{"-addr", ":0"}},
		{argv: "go test ./a ./b", err: "one package"},
		{argv: "go test -c ./a", err: "cannot honour -c"},
		{argv: "go test -json ./a", err: "cannot honour -json"},
		{argv: "go run -bogus main.go", err: "unknown build flag -bogus"},
		{argv: "go run -race", err: "no package"},
	} {
		p, err := parseGoPlan(strings.Fields(tt.argv))
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.argv, err, tt.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.argv, err)
		case tt.pkgs == nil:
			if p != nil {
				t.Errorf("%q: a plan %+v for a program that is not go test or go run", tt.argv, p)
			}
		case p == nil || !slices.Equal(p.build, tt.build) || !slices.Equal(p.pkgs, tt.pkgs) || !slices.Equal(p.args, tt.args):
			t.Errorf("%q: plan %+v; want build %q pkgs %q args %q", tt.argv, p, tt.build, tt.pkgs, tt.args)
		}
	}
}

// FuzzGoPlan checks that any go command line is sorted without a panic,
// every argument ending up in the build, the packages or the binary's
// arguments (less -args and -vet, plus a -cover per -coverprofile).
func FuzzGoPlan(f *testing.F) {
	for _, s := range []string{"test\x00-run\x00X\x00./pkg", "run\x00main.go\x00-v", "test\x00-v\x00-args\x00-x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in := append([]string{"go"}, strings.Split(s, "\x00")...)
		p, err := parseGoPlan(in)
		if err != nil || p == nil {
			return
		}
		if len(p.pkgs) == 0 {
			t.Fatalf("%q: no package", in)
		}
		out := len(p.build) + len(p.pkgs) + len(p.args)
		if out > 2*len(in) {
			t.Fatalf("%q: %d arguments out of %d", in, out, len(in))
		}
	})
}
