#!/usr/bin/env bash
# The test command: go vet and the whole test suite with the race detector.
# Needs KAFKA_SCHEMAS (default ../shared/kafka-schemas) and, for the PDF and browser checks,
# qpdf, poppler-utils and chromium (bash .ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")"
export KAFKA_SCHEMAS="${KAFKA_SCHEMAS:-$(cd .. && pwd)/shared/kafka-schemas}"
go vet ./...
go test -race -count=1 -timeout 40m ./...
