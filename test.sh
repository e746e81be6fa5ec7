#!/usr/bin/env bash
# The test command: go vet, the builds of every version of every release without the race
# detector (many times slower there), then the whole test suite with it.
# Needs KAFKA_SCHEMAS (default ../shared/kafka-schemas) and, for the PDF and browser checks,
# qpdf, poppler-utils and chromium (bash .ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")"
export KAFKA_SCHEMAS="${KAFKA_SCHEMAS:-$(cd .. && pwd)/shared/kafka-schemas}"
go vet ./...
go test -count=1 -timeout 20m -run '^TestBuildReleases$' ./cmd/kafkagrid
go test -race -count=1 -timeout 40m ./...
