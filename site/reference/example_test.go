package reference_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

func ExampleParseFormats() {
	f, err := reference.ParseFormats("svg, html,txt")
	fmt.Println(f, err)
	_, err = reference.ParseFormats("png")
	fmt.Println(err)
	// Output:
	// svg,html,txt <nil>
	// reference: unknown format "png" (want svg, html, pdf, bin, json or txt)
}

// schemas40 is the 4.0 schema folder (see internal/testenv).
func schemas40() string {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		return err.Error()
	}
	return dir
}

func ExampleBuild() {
	cat, err := kafka.LoadCatalog(schemas40())
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := os.MkdirTemp("", "kafkagrid-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	sum, err := reference.Build(context.Background(), cat, out, reference.Options{
		Formats: reference.SVG | reference.Bin,
		APIs:    []string{"ApiVersions"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(out, "*", "*"))
	for _, f := range files {
		rel, _ := filepath.Rel(out, f)
		fmt.Println(filepath.ToSlash(rel))
	}
	fmt.Println(sum.Files, "files")
	// Output:
	// bin/18-ApiVersions-v0-response-unsupported-version.bin
	// bin/18-ApiVersions-v4-request.bin
	// bin/18-ApiVersions-v4-response.bin
	// svg/18-ApiVersions-v0-response-unsupported-version-grid.svg
	// svg/18-ApiVersions-v0-response-unsupported-version-tree.svg
	// svg/18-ApiVersions-v4-request-grid.svg
	// svg/18-ApiVersions-v4-request-tree.svg
	// svg/18-ApiVersions-v4-response-grid.svg
	// svg/18-ApiVersions-v4-response-tree.svg
	// 9 files
}

func ExampleBaseName() {
	cat, err := kafka.LoadCatalog(schemas40())
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := cat.Lookup("Produce")
	fmt.Println(reference.BaseName(a, a.Version, false))
	fmt.Println(reference.BaseName(a, 3, true))
	fmt.Println(reference.PageName(a))
	fmt.Println(reference.VersionPageName(a, 3, a.Version))
	fmt.Println(reference.BookName(cat.Release.Name()))
	// Output:
	// 0-Produce-v12-request
	// 0-Produce-v3-response
	// api/Produce.html
	// api/Produce-v3.html
	// kafka-4.0-protocol.pdf
}

func ExampleShow() {
	cat, err := kafka.LoadCatalog(schemas40())
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := cat.Lookup("ApiVersions")
	var buf strings.Builder
	if err := reference.Show(&buf, cat, a, reference.ShowOptions{Format: reference.Text, Version: 3, HasVersion: true}); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(buf.String(), "\n")
	fmt.Println(strings.Join(lines[:23], "\n"))
	// Output:
	// Version 3: request header v2, response header v0 (ApiVersions responses always use header v0, so that any client can read them)
	// What changed in v3:
	//   request: flexible versions start (KIP-482): compact lengths for strings, bytes and arrays, a tagged-fields section after every struct, and the flexible header version
	//   request: adds ClientSoftwareName (string, ignorable)
	//   request: adds ClientSoftwareVersion (string, ignorable)
	//   response: adds SupportedFeatures (tagged field 0, []SupportedFeatureKey, ignorable)
	//   response: adds FinalizedFeaturesEpoch (tagged field 1, int64, ignorable)
	//   response: adds FinalizedFeatures (tagged field 2, []FinalizedFeatureKey, ignorable)
	//   response: adds ZkMigrationReady (tagged field 3, bool, ignorable)
	//   Kafka's comment, ApiVersionsRequest.json:23: Version 3 is the first flexible version and adds ClientSoftwareName and ClientSoftwareVersion.
	//   Kafka's comment, ApiVersionsResponse.json:24: Version 3 is the first flexible version. Tagged fields are only supported in the body but not in the header. The length of the header must not change in order to guarantee the backward compatibility.
	//
	// ApiVersions v3 request
	//
	// Byte grid
	//
	//  0                   1                   2                   3
	//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |                             size                              |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |         RequestApiKey         |       RequestApiVersion       |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
}

func ExampleShowFrame() {
	cat, err := kafka.LoadCatalog(schemas40())
	if err != nil {
		fmt.Println(err)
		return
	}
	// An ApiVersions v3 request as a client sends it: size, key 18, version 3, correlation id 1,
	// client id "c", no header tags, software name "kg" and version "1", no tags.
	frame := []byte{0, 0, 0, 0x12, 0, 18, 0, 3, 0, 0, 0, 1, 0, 1, 'c', 0, 3, 'k', 'g', 2, '1', 0}
	fr, err := cat.Decode(frame, kafka.DecodeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf strings.Builder
	if err := reference.ShowFrame(&buf, cat, fr, nil, reference.ShowOptions{Format: reference.Text}); err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.Contains(l, "ClientSoftware") && strings.Contains(l, "=") {
			fmt.Println(strings.TrimSpace(l))
		}
	}
	// Output:
	// ClientSoftwareName    = "kg"
	// ClientSoftwareVersion = "1"
}
