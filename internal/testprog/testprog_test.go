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
