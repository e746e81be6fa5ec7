package jsonw

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Field is a member ReadObject reads: its name, matched as json.Unmarshal matches a struct
// field's (the exact name, else the first whatever its case), and where its value goes: one
// of String, Bool and Ints.
type Field struct {
	Name   string
	String *string
	Bool   *bool
	Ints   *[]int
}

// ErrType is what a value of the wrong type is, wrapped with the member's name.
var ErrType = errors.New("a value of the wrong type")

// ReadObject reads one JSON value from dec (UseNumber set) into fields, as json.Unmarshal
// (or Decoder.Decode) reads it into a struct of those fields: members of other names are
// skipped, null leaves a field as it is (a list becomes nil, a null element 0; a null for the
// whole sets nothing), and a value of the wrong type is an error (ErrType) after the rest is
// read, as is anything but an object.
// It reads the value only, not what may follow it.
func ReadObject(dec *json.Decoder, fields []Field) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil // null: as json.Unmarshal, nothing set
	}
	if t != json.Delim('{') {
		if d, ok := t.(json.Delim); ok {
			if err := skip(dec, d); err != nil {
				return err
			}
		}
		return fmt.Errorf("the value: %w", ErrType)
	}
	var typeErr error
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		f := match(fields, key)
		var err2 error
		if f == nil {
			err2 = skipValue(dec)
		} else if err2 = f.read(dec); errors.Is(err2, ErrType) {
			typeErr = cmpFirst(typeErr, err2)
			err2 = nil
		}
		if err2 != nil {
			return err2
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return err
	}
	return typeErr
}

func cmpFirst(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// match returns the field key names: the exact name, else the first that equals it whatever
// its case.
func match(fields []Field, key string) *Field {
	for i := range fields {
		if fields[i].Name == key {
			return &fields[i]
		}
	}
	for i := range fields {
		if strings.EqualFold(fields[i].Name, key) {
			return &fields[i]
		}
	}
	return nil
}

// read reads the field's value.
func (f *Field) read(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil { // null
		if f.Ints != nil {
			*f.Ints = nil
		}
		return nil
	}
	switch {
	case f.String != nil:
		if s, ok := t.(string); ok {
			*f.String = s
			return nil
		}
	case f.Bool != nil:
		if b, ok := t.(bool); ok {
			*f.Bool = b
			return nil
		}
	case f.Ints != nil:
		if t == json.Delim('[') {
			return f.readInts(dec)
		}
	}
	if d, ok := t.(json.Delim); ok {
		if err := skip(dec, d); err != nil {
			return err
		}
	}
	return fmt.Errorf("%s: %w", f.Name, ErrType)
}

// readInts reads a list of integers, after its '['.
func (f *Field) readInts(dec *json.Decoder) error {
	out := []int{}
	var typeErr error
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		n := 0
		switch v := t.(type) {
		case nil:
		case json.Number:
			i, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				typeErr = cmpFirst(typeErr, fmt.Errorf("%s: %w", f.Name, ErrType))
			}
			n = int(i)
		case json.Delim:
			if err := skip(dec, v); err != nil {
				return err
			}
			typeErr = cmpFirst(typeErr, fmt.Errorf("%s: %w", f.Name, ErrType))
		default:
			typeErr = cmpFirst(typeErr, fmt.Errorf("%s: %w", f.Name, ErrType))
		}
		out = append(out, n)
	}
	if _, err := dec.Token(); err != nil { // ']'
		return err
	}
	*f.Ints = out
	return typeErr
}

// skipValue reads one value and drops it.
func skipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); ok {
		return skip(dec, d)
	}
	return nil
}

// skip reads the rest of the object or array opened by d.
func skip(dec *json.Decoder, d json.Delim) error {
	if d != '{' && d != '[' {
		return nil
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}
