//go:build !linux && !(js && wasm)

package main

// fatalNotUsage leaves the runtime's fatal errors as they are where a process cannot be made
// not dumpable: an out-of-memory crash exits with status 2, as a usage error does.
func fatalNotUsage() {}
