package site

import "github.com/kafkagrid/kafkagrid/kafka"

// FirstScreenBytes and FirstScreenNodes bound the first screen of a frame: what a page draws
// live of a frame too big to draw whole (Cut), about a screen of its 32-bit grid and of its
// tree, linked to the hex dump and the detail panel like any drawing.
const (
	FirstScreenBytes = 128
	FirstScreenNodes = 48
)

// RestPath is the path of the field that stands for the bytes a cut frame leaves out (Cut).
const RestPath = "#rest"

// Cut returns a copy of fr holding the nodes that start before its first screen ends (at most
// nodes nodes, FirstScreenNodes when nodes is 0 or less, starting in its first
// FirstScreenBytes bytes), then one field,
// "rest of the frame" (path RestPath), covering every byte after them, with the value and the
// description rest gives for their count (what the page says of them: where the whole frame
// is drawn), and the byte where that field starts. A frame that fits its first screen comes back as it is, with len(fr.Bytes). fr is
// not changed; the copy shares its nodes' values. The cost is that of the nodes kept.
func Cut(fr *kafka.Frame, nodes int, rest func(left int) (value, about string)) (*kafka.Frame, int) {
	if fr == nil || fr.Root == nil {
		return fr, 0
	}
	if nodes <= 0 {
		nodes = FirstScreenNodes
	}
	cut, count := len(fr.Bytes), 0
	fr.Root.Walk(func(n *kafka.Node) bool {
		if cut < len(fr.Bytes) {
			return false
		}
		if count++; n != fr.Root && (count > nodes || n.Offset >= FirstScreenBytes) {
			cut = n.Offset
			return false
		}
		return true
	})
	root, kept, end := prune(fr.Root, cut)
	if cut >= len(fr.Bytes) || end <= 0 || end >= len(fr.Bytes) {
		return fr, len(fr.Bytes)
	}
	value, about := rest(len(fr.Bytes) - end)
	root.Children = append(root.Children, &kafka.Node{Kind: kafka.KindField, Name: "rest of the frame", Path: RestPath,
		Offset: end, Length: len(fr.Bytes) - end, WireType: "bytes", Value: value, About: about})
	out := &kafka.Frame{API: fr.API, Response: fr.Response, Version: fr.Version, HeaderVersion: fr.HeaderVersion,
		CorrelationID: fr.CorrelationID, Bytes: fr.Bytes, Root: root, Header: fr.Header, Body: fr.Body,
		Nodes: kept + 1, Note: fr.Note}
	return out, end
}

// prune copies n with the descendants that start before cut, and returns the copy, how many
// nodes it has and where its last leaf ends.
func prune(n *kafka.Node, cut int) (*kafka.Node, int, int) {
	c := *n
	c.Children = nil
	nodes, end := 1, n.Offset+n.Length
	if len(n.Children) > 0 {
		end = n.Offset
	}
	for _, ch := range n.Children {
		if ch.Offset >= cut {
			break
		}
		p, k, e := prune(ch, cut)
		c.Children = append(c.Children, p)
		nodes += k
		end = max(end, e)
	}
	return &c, nodes, end
}
