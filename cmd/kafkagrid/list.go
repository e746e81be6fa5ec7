package main

import (
	"context"
	"errors"
	"io"
)

// runList implements "kafkagrid list". Not built yet.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("list: not implemented yet")
}
