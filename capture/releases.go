package capture

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// Release is another release's catalogue, tried for a request the one read with cannot read:
// an API key it lacks, or a version outside its range (an old client against Kafka 4.0's
// schemas, which removed the oldest versions, KIP-896).
type Release struct {
	Name    string
	Catalog *kafka.Catalog
	Flag    string // what picks it on decode's command line ("-release 3.9")
}

// HeaderRefused reports whether err is a request's header naming an API key or version the
// catalogue lacks: what another release may read.
func HeaderRefused(err error) bool { return headerRefused(err) }

// KnownElsewhere says, for a request frame whose header names an API key and version the
// catalogue cur lacks, the releases kafkagrid knows that have them: "Fetch v0 is not in Kafka
// 4.0 (Kafka 4.0 removed the oldest versions, KIP-896) but is in Kafka 2.2, …, 3.9"; "" when
// none has, or the frame is too short to say.
func KnownElsewhere(cur *kafka.Catalog, frame []byte) (note, newest string) {
	if len(frame) < 8 {
		return "", ""
	}
	key, v := int16(binary.BigEndian.Uint16(frame[4:])), int16(binary.BigEndian.Uint16(frame[6:]))
	rels := schemas.KnownReleasesWith(key, schemas.Version(v))
	_, names, _, ok := kafka.KnownAPI(strconv.Itoa(int(key)))
	if len(rels) == 0 || !ok || len(names) == 0 {
		return "", ""
	}
	newest = rels[len(rels)-1]
	note = ReleaseNote(cur, names[len(names)-1], v, strings.Join(rels, ", "), "")
	note, _, _ = strings.Cut(note, ": decoded with its schemas")
	return note, newest
}

func headerRefused(err error) bool {
	var ke *kafka.Error
	return errors.As(err, &ke) && (ke.Path == "header.RequestApiKey" || ke.Path == "header.RequestApiVersion") &&
		!errors.Is(err, kafka.ErrTruncated)
}

// request decodes msg as a request; when the catalogue refuses its header, it is decoded with
// the first of Options.Releases whose catalogue takes its header, and the note says so (""
// otherwise). Each release reads the bytes as they were sent: what looks like a secret is
// masked (maskAuth) only once no release takes the frame's header, or in the body of the
// release that does, so that a frame of a newer release (a Produce v13 of Kafka 4.1 read with
// 4.0) is not masked first and then read as corrupt.
func (d *decoder) request(msg *Message) string {
	sent := *msg
	d.decodeOnce(msg, kafka.DecodeOptions{})
	if msg.Err == nil || d.o.Releases == nil || !headerRefused(msg.Err) {
		d.maskAndRetry(msg, kafka.DecodeOptions{})
		return ""
	}
	if note := d.otherRelease(msg, sent); note != "" {
		return note
	}
	d.maskAndRetry(msg, kafka.DecodeOptions{})
	return ""
}

// otherRelease decodes sent, a request whose header the catalogue refused, with the first of
// Options.Releases that takes its header, into msg, and returns the note that says so; "" when
// none does (msg unchanged).
func (d *decoder) otherRelease(msg *Message, sent Message) string {
	for _, rel := range d.o.Releases() {
		if d.others == nil {
			d.others = map[string]*kafka.Decoder{}
		}
		dec := d.others[rel.Name]
		if dec == nil {
			dec = rel.Catalog.NewDecoder()
			d.others[rel.Name] = dec
		}
		try := sent
		save, redacted, notes := d.dec, d.redacted, len(d.redactNotes)
		d.dec = dec
		d.decode(&try, kafka.DecodeOptions{})
		d.dec = save
		if try.Err == nil || try.Frame != nil && try.Frame.API != nil && !headerRefused(try.Err) {
			// Its header is this release's: the frame is, and a failure in its body stands.
			*msg = try
			return ReleaseNote(d.cat, msg.Frame.API.Name, msg.Frame.Version, rel.Name, rel.Flag)
		}
		// A reading left for the next release's: what it masked is not counted.
		d.redacted, d.redactNotes = redacted, d.redactNotes[:notes]
	}
	return ""
}

// ReleaseNote says that a frame of version v of the API named api, which the catalogue cur
// lacks, was decoded with release rel's schemas, picked by flag: "Produce v1 is not in Kafka
// 4.0 (Kafka 4.0 removed the oldest versions, KIP-896) but is in Kafka 3.9: decoded with its
// schemas (-release 3.9)".
func ReleaseNote(cur *kafka.Catalog, api string, v int16, rel, flag string) string {
	what := fmt.Sprintf("%s v%d", api, v)
	why := ""
	switch a, ok := cur.Lookup(api); {
	case !ok:
		what = api
	case a.Request != nil && a.Request.ValidVersions.Set && v < a.Request.ValidVersions.Lo && removedBy896(a.Key, v):
		why = " (Kafka 4.0 removed the oldest versions, KIP-896)"
	}
	return fmt.Sprintf("%s is not in Kafka %s%s but is in Kafka %s: decoded with its schemas (%s)", what, cur.Release.Name(), why, rel, flag)
}

// removedBy896 reports whether version v of the API of key apiKey is one Kafka 4.0 removed
// (KIP-896): in Kafka 3.9, not in 4.0, as kafkagrid knows those releases.
func removedBy896(apiKey int16, v int16) bool {
	in := schemas.KnownReleasesWith(apiKey, schemas.Version(v))
	return slices.Contains(in, "3.9") && !slices.Contains(in, "4.0")
}
