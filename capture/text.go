package capture

import "github.com/kafkagrid/kafkagrid/textbytes"

// The reading of bytes written as text (hex, dumps, byte lists, strings, base64) is package
// textbytes; these names keep capture's callers as they were.

// Form is a way of writing bytes as text (textbytes.Form).
type Form = textbytes.Form

// Text is what ParseText read (textbytes.Text).
type Text = textbytes.Text

// TextError is the error of a text that is none of the forms (textbytes.Error).
type TextError = textbytes.Error

// The forms of textbytes.
const (
	FormAuto   = textbytes.Auto
	FormHex    = textbytes.Hex
	FormDump   = textbytes.Dump
	FormList   = textbytes.List
	FormString = textbytes.String
	FormBase64 = textbytes.Base64
)

// MaxRepeat is textbytes.MaxRepeat.
const MaxRepeat = textbytes.MaxRepeat

// Forms lists the forms, in the order ParseText tries them.
var Forms = textbytes.Forms

// ParseForm reads a form's name as -from takes it (textbytes.ParseForm).
func ParseForm(s string) (Form, error) { return textbytes.ParseForm(s) }

// ParseText reads bytes written as text (textbytes.Parse).
func ParseText(text []byte, from Form) (*Text, error) { return textbytes.Parse(text, from) }

// ParseHex reads bytes written as text in any form (textbytes.Bytes).
func ParseHex(text []byte) ([]byte, error) { return textbytes.Bytes(text) }

// LooksLikeText reports whether data is text that ParseText may read (textbytes.LooksLikeText).
func LooksLikeText(data []byte) bool { return textbytes.LooksLikeText(data) }
