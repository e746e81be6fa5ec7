package capture

import "testing"

func TestNamedResponse(t *testing.T) {
	for _, tt := range []struct {
		name, key, api string
		v              int
		ok             bool
	}{
		{"0-Produce-v12-response.bin", "0", "Produce", 12, true},
		{"18-ApiVersions-v4-response.bin", "18", "ApiVersions", 4, true},
		{"0-Produce-v12-request.bin", "", "", 0, false},
		{"x-Produce-v12-response.bin", "", "", 0, false},
		{"0-Produce-vx-response.bin", "", "", 0, false},
		{"0-v3-response.bin", "", "", 0, false},
	} {
		key, api, v, ok := namedResponse(tt.name)
		if key != tt.key || api != tt.api || v != tt.v || ok != tt.ok {
			t.Errorf("%s: %q %q %d %v", tt.name, key, api, v, ok)
		}
	}
}
