package main

import (
	"context"
	"errors"
	"io"
)

// runGrid implements "kafkagrid grid". Not built yet.
func runGrid(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("grid: not implemented yet")
}
