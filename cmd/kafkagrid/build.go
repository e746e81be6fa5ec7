package main

import (
	"context"
	"errors"
	"io"
)

// runBuild implements "kafkagrid build". Not built yet.
func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("build: not implemented yet")
}
