package profgen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
)

func generate(t *testing.T, c Config) *profile.Profile {
	t.Helper()
	p, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGenerateShape(t *testing.T) {
	c := Small
	p := generate(t, c)
	if len(p.Sample) != c.Samples || len(p.Location) != c.Locations || len(p.Function) != c.Functions {
		t.Fatalf("got %d samples, %d locations, %d functions; want %d, %d, %d",
			len(p.Sample), len(p.Location), len(p.Function), c.Samples, c.Locations, c.Functions)
	}
	deepest, labeled := 0, 0
	for _, s := range p.Sample {
		frames := 0
		for _, loc := range s.Location {
			frames += len(loc.Line)
		}
		deepest = max(deepest, frames)
		if root := s.Location[len(s.Location)-1]; root.Line[0].Function.Name != "runtime.goexit" {
			t.Fatalf("stack rooted at %s, want runtime.goexit", root.Line[0].Function.Name)
		}
		if len(s.Label["handler"]) == 1 {
			labeled++
		}
	}
	if deepest != c.MaxDepth {
		t.Errorf("deepest stack has %d frames, want %d", deepest, c.MaxDepth)
	}
	if share := labeled * 100 / c.Samples; share < c.LabelPercent/2 || share > c.LabelPercent*2 {
		t.Errorf("%d%% of samples labeled, want about %d%%", share, c.LabelPercent)
	}
	inlined := 0
	for _, loc := range p.Location {
		if len(loc.Line) > 1 {
			inlined++
		}
	}
	if share := inlined * 100 / c.Locations; share < c.InlinePercent/2 || share > c.InlinePercent*2 {
		t.Errorf("%d%% of locations inlined, want about %d%%", share, c.InlinePercent)
	}
	goName := regexp.MustCompile(`^[a-z][a-z0-9/._]*\.(\(\*[A-Z]\w*\)\.|[A-Z]\w*\.)?\w+(\.func\d)?$`)
	for _, f := range p.Function {
		if !goName.MatchString(f.Name) || !strings.HasPrefix(f.Filename, c.SourceRoot+"/") {
			t.Fatalf("function %q in %q does not look like Go's", f.Name, f.Filename)
		}
	}
}

func encode(t *testing.T, c Config) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := generate(t, c).Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterministic(t *testing.T) {
	a, b := encode(t, Small), encode(t, Small)
	if !bytes.Equal(a, b) {
		t.Fatal("two profiles from the same seed differ")
	}
	other := Small
	other.Seed = 2
	if bytes.Equal(a, encode(t, other)) {
		t.Fatal("profiles from different seeds are the same")
	}
}

func TestBadConfig(t *testing.T) {
	for _, c := range []Config{
		{MaxDepth: 2},
		{Functions: 10, MaxDepth: 20},
		{Functions: 100, Locations: 50},
		{SourceRoot: "relative/dir"},
	} {
		if _, err := Generate(c); err == nil {
			t.Errorf("Generate(%+v) succeeded", c)
		}
	}
}

// TestSourcesListable checks with go tool pprof that list finds the
// generated source of a function and annotates the lines its locations
// point at.
func TestSourcesListable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache") // Cached creates it
	file, err := Cached(dir, Small)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := Cached(dir, Small); err != nil || again != file {
		t.Fatalf("Cached again: %q, %v; want %q", again, err, file)
	}
	if info2, _ := os.Stat(file); !info2.ModTime().Equal(info.ModTime()) {
		t.Fatal("Cached regenerated an existing profile")
	}
	p := reporttest.ReadProfile(t, file)
	// The leaf function of the first sample: its leaf line has samples.
	leaf := p.Sample[0].Location[0].Line[0]
	fn := leaf.Function
	out, err := exec.Command("go", "tool", "pprof", "-list=^"+regexp.QuoteMeta(fn.Name)+"$", file).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -list: %v\n%s", err, out)
	}
	src, err := os.ReadFile(fn.Filename)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(string(src), "\n")[leaf.Line-1]
	row := regexp.MustCompile(fmt.Sprintf(`(?m)^ +(\S+) +(\S+) +%d:%s$`, leaf.Line, regexp.QuoteMeta(want)))
	m := row.FindStringSubmatch(string(out))
	if m == nil || m[1] == "." || !strings.Contains(string(out), fn.Filename) {
		t.Fatalf("pprof -list output lacks line %d %q of %s with flat samples:\n%s", leaf.Line, want, fn.Filename, out)
	}
}
