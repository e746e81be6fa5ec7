package reference

import "strings"

// guide explains how to read the drawings; the book prints it after the contents and the
// index page under "How to read the pages". Each entry is a paragraph: a lead and its text.
var guide = [][2]string{
	{"The examples.", "Each API is shown at its highest valid version with a minimal request and response built from its schema: the fields of that version, most arrays holding one element, values that look like a real cluster's (a topic \"orders\", a broker \"broker-1\"); tagged fields appear only where the example sets them. Each is encoded byte for byte as a complete frame: the int32 size, the request or response header, then the body."},
	{"The byte grid.", "The frame is drawn 32 bits to a row, as in RFC 791: the bit ruler on top, the offset of each row on the left in hex, each field boxed with its name and value, and the hex of every byte at the foot of its column. A field longer than sixteen rows (64 bytes) shows its first and last rows with \"... 64 bytes, 0x0020–0x005f ...\" between them, naming the bytes left out, and dashed sides where rows were left out."},
	{"Colours and letters.", "Fields share a colour by what they are: the header, the body, each struct, and each array, whose elements all take the array's colour (Topics, Topics.Partitions); the legend under the grid names them. Each group also has a letter: in its legend swatch, in the bottom-left corner of the box where the group starts in each row of the grid, with an array element's index after it there (C[0], C[1]), and in the tree's chip of the row that starts the group. In greyscale, or for a reader who cannot tell two colours apart, the letter names the group. Plain boxes (near-white, near-black in a dark scheme) are framing, not data: the frame size, the length and count prefixes, and the tagged-field sections. A framing box carries a strip of its group's colour along its top."},
	{"Arrows.", "Flexible versions (KIP-482) write lengths and counts as unsigned varints of N+1, so that 0 can mean null: \"7 -> length 6\" is the varint 7, meaning six bytes follow; \"2 -> 1 element\", one element; \"0 -> none\", no tagged fields."},
	{"Brackets.", "A count box with \"[\" inside its left edge opens an array, named in the box (\"Topics\", \"2 -> 1 element\"): its elements follow. A tags box is the tagged-field section that ends a struct, named after it (\"Partitions[0] tags\", \"header tags\", \"body tags\"); \"]\" inside its right edge closes that struct. One that holds tagged fields has \"[\" instead, and each field follows as a tag box (its tag number), a tag size box and its value."},
	{"Marks.", "A field that wraps from the end of one row to the start of the next is drawn in two pieces, open at the facing ends with a dashed edge: \"Name ›\" marks the piece that goes on in the next row, \"‹ Name\" the piece that came from the row before. A label too long for its box is shrunk, then wrapped; a name wider than its box, as a single bit's, is written turned in it, reading upward, with its value (\"isTransactional = 1 -> true\"), the row taller to hold it; where even that does not fit, the value gives way to a numbered mark such as [1], or the whole label to the number alone, and the notes under the legend give the text. The elements of arrays of numbers or strings are named with their array (ReplicaNodes[0]); a null or empty string is drawn as its length prefix, named after the field."},
	{"Bit fields.", "The attributes of a record batch (an int16) are drawn as the bit fields they hold, most significant first as on the wire: unused (bits 7-15), hasDeleteHorizonMs (bit 6: the batch carries a delete horizon), isControlBatch (bit 5: transaction markers, not data), isTransactional (bit 4), timestampType (bit 3: CreateTime or LogAppendTime) and compression (bits 0-2: none, gzip, snappy, lz4, zstd). The narrow boxes carry their names turned upright, with their values; the hex of a byte shared by several bit fields is written once, under them. A legacy message's attributes (an int8) are drawn the same way, and the tree lists the bits under Attributes."},
	{"Embedded frames.", "Envelope (key 58) carries a whole request or response, without its size, in its RequestData or ResponseData. After the field's length prefix the grid draws that frame's header and body field by field, in colours of their own, at the outer frame's offsets; their names and paths start with the field's (\"RequestData.header tags\"), the legend says what the frame is (\"RequestData.header: CreateTopics v7 request, embedded\"), and the tree shows it under RequestData."},
	{"The expanded tree.", "The same bytes as structure: every node with its value, its offset (hex and decimal), its length in bytes and its wire type. A node and its box in the grid have the same colour. On the web pages, pointing at either, tapping it, or tabbing to a drawing and using the arrow keys lights up the other and its bytes in the hex dump, and shows the field's path, type, offset, length, value, the schema's description of it and a link to its line in the schema."},
	guideSchemas,
}

// guideSchemas is the guide's paragraph on the schemas as the pages show them; the book,
// which prints each schema as its field table only, says bookSchemas instead.
var (
	guideSchemas = [2]string{"The schemas.", "The JSON message specifications these frames follow, as Kafka ships them in clients/src/main/resources/common/message, with their line numbers."}
	bookSchemas  = [2]string{"The field tables.", "Each chapter ends with the fields of its request and response schemas (as Kafka ships them in clients/src/main/resources/common/message): every field's path, type, the versions it is in, nullable and tagged in, and the schema's description of it; grey rows are not in the version drawn. The JSON itself, every line numbered, is on the API's web page."}
)

// guideCallouts say what to see in the guide's figure, the ApiVersions request's byte grid,
// row by row: the fields named, what they show, and the path of the field whose row the book's
// figure marks with the callout's number.
var guideCallouts = [][3]string{
	{"size", "at 0x0000: framing, drawn plain (near-white; near-black in a dark scheme): how many bytes follow. Every frame starts with it.", "#size"},
	{"RequestApiKey, RequestApiVersion, CorrelationId", "the request header, in the header's colour (see the legend); the hex of each byte at the foot of its column.", "header.RequestApiKey"},
	{"length, ClientId ›, ‹ ClientId", "the ClientId string: its int16 length prefix, then its bytes, which run into the next rows: › where a field goes on, ‹ where it ends.", "header.ClientId"},
	{"header tags", "the header's tagged-field section, framing with a strip of the header's colour along its top; \"0 -> none\" is the varint 0: no tagged fields, and the \"]\" at its right edge closes the header.", "header#tags"},
	{"length, ClientSoftwareName, ClientSoftwareVersion", "the body, in the body's colour; a flexible version writes each length as a varint of N+1 (\"10 -> length 9\").", "ClientSoftwareName"},
	{"body tags", "the body's tagged-field section, which ends every struct of a flexible version; its \"]\" closes the body.", "body#tags"},
}

// guideText returns a paragraph with typographic arrows and ellipses.
func guideText(s string) string {
	return strings.NewReplacer("->", "→", "...", "…").Replace(s)
}
