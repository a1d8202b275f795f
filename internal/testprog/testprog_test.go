package testprog

import (
	"os/exec"
	"testing"
)

func TestBuildSourceRunsTheProgram(t *testing.T) {
	bin := BuildSource(t, `package main

import "fmt"

func main() { fmt.Println(6 * 7) }
`)
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "42\n" {
		t.Fatalf("program printed %q, want %q", out, "42\n")
	}
}

// TestBuildFiles builds a program of two files and checks the caller's
// map is left as it was given.
func TestBuildFiles(t *testing.T) {
	files := map[string]string{
		"main.go":   "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(answer()) }\n",
		"answer.go": "package main\n\nfunc answer() int { return 42 }\n",
	}
	out, err := exec.Command(Build(t, files)).Output()
	if err != nil || string(out) != "42\n" {
		t.Fatalf("program printed %q, %v; want %q", out, err, "42\n")
	}
	if _, ok := files["go.mod"]; ok || len(files) != 2 {
		t.Errorf("Build changed the caller's files: %q", files)
	}
}
