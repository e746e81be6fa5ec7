package main

import (
	"context"
	"errors"
	"io"
)

// runShow implements "kafkagrid show". Not built yet.
func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("show: not implemented yet")
}
