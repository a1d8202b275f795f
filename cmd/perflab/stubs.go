package main

import (
	"context"
	"errors"
	"io"
)

// notImplemented is the run function of commands still being built.
// Delete this file when no command uses it.
func notImplemented(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	return errors.New("this command is not implemented yet")
}
