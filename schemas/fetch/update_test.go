package fetch

// go test ./... -update refreshes the golden files of every package; this one has none, but
// its tests know the switch (internal/testenv's, the one flag), so the command runs here too.
import _ "github.com/kafkagrid/kafkagrid/internal/testenv"
