// Package kafkaexamples holds the hand-chosen values of kafkagrid's Kafka examples: one YAML
// file per API (<ApiName>.yaml), merged by package kafka over the values it generates from the
// schema. The files are built into the binary through FS.
package kafkaexamples

import "embed"

// FS holds the override files, <ApiName>.yaml at its root.
//
//go:embed *.yaml
var FS embed.FS
