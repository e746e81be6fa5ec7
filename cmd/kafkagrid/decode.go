package main

import (
	"context"
	"errors"
	"io"
)

// runDecode implements "kafkagrid decode". Not built yet.
func runDecode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("decode: not implemented yet")
}
