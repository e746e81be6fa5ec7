package reference

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// storyView is the cluster every example describes (kafka.Story), as the index page and the
// book show it: facts in words, and the partitions as a table. It is made from the story's
// data (examples/kafka/cluster.yaml), never copied by hand, so it cannot drift from the frames.
type storyView struct {
	Lead       string
	Facts      [][2]string // a label and its text
	Partitions []storyPartition
}

// storyPartition is one row of the partitions table.
type storyPartition struct {
	Name     string // orders-0
	Leader   string // "1"
	Epoch    string // leader epoch
	Replicas string // "1, 2, 3"
	ISR      string
	Offline  string // "—" when none
	Log      bool   // the partition the producer writes to
}

// storyLead says what the story is for, above its facts.
const storyLead = "Every example frame describes one small cluster, written once in examples/kafka/cluster.yaml, so that requests and responses agree with each other and across APIs: the topic a Metadata response lists is the one Produce writes to, the batch Fetch returns is the batch Produce wrote, at the offset Produce's response gave, and the producer InitProducerId hands out is the one that writes it."

// scramNames are Kafka's SCRAM mechanism codes (ScramMechanism.java).
var scramNames = map[int8]string{1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}

// newStoryView describes a story. Times are written in UTC, numbers as Kafka's fields hold them.
func newStoryView(s *kafka.Story) *storyView {
	v := &storyView{Lead: storyLead}
	add := func(label, format string, a ...any) {
		v.Facts = append(v.Facts, [2]string{label, fmt.Sprintf(format, a...)})
	}

	ctrl := "broker " + strconv.Itoa(int(s.Controller))
	add("Cluster", "id %s; %s is also the active controller (KRaft, combined mode), on the controller listener, port %d", s.ClusterID, ctrl, s.ControllerPort)
	var brokers []string
	for _, b := range s.Brokers {
		br := fmt.Sprintf("%d %s:%d", b.ID, b.Host, b.Port)
		if b.Rack != "" {
			br += " in " + b.Rack
		}
		brokers = append(brokers, br)
	}
	add("Brokers", "%s", strings.Join(brokers, "; "))
	var topics []string
	for _, t := range s.Topics {
		topics = append(topics, fmt.Sprintf("%s, id %s, %s", t.Name, t.ID, plural(len(t.Partitions), "partition")))
	}
	add("Topics", "%s", strings.Join(topics, "; "))
	l := s.Log
	add("Log", "%s-%d: log start offset %d; the producer's batch at offset %d, its commit marker at %d; high watermark and last stable offset %d",
		l.Topic, l.Partition, l.LogStartOffset, l.BatchOffset, l.BatchOffset+1, l.HighWatermark)
	g := s.Group
	var members []string
	for i, m := range g.Members {
		ms := m.ID
		var about []string
		if m.Instance != "" {
			about = append(about, "instance "+m.Instance)
		}
		if m.Host != "" {
			about = append(about, "host "+m.Host)
		}
		if i == 0 {
			about = append(about, "the leader")
		}
		if len(about) > 0 {
			ms += " (" + strings.Join(about, ", ") + ")"
		}
		members = append(members, ms)
	}
	add("Consumer group", "%s (protocol type %s, assignor %s), generation %d; %s %s", g.ID, g.ProtocolType, g.Protocol, g.Generation,
		map[bool]string{true: "member", false: "members"}[len(members) == 1], strings.Join(members, ", "))
	add("Share group", "%s (KIP-932); member %s, member epoch %d", s.ShareGroup.ID, s.ShareGroup.Member, s.ShareGroup.MemberEpoch)
	p := s.Producer
	add("Producer", "producer id %d, epoch %d (from InitProducerId)", p.ID, p.Epoch)
	add("Transaction", "transactional id %s, timeout %d ms: writes one batch to %s-%d (offset %d) and commits it (marker at offset %d)",
		p.TransactionalID, p.TransactionTimeoutMs, l.Topic, l.Partition, l.BatchOffset, l.BatchOffset+1)
	mech := scramNames[s.User.Mechanism]
	if mech == "" {
		mech = "mechanism " + strconv.Itoa(int(s.User.Mechanism))
	}
	user := fmt.Sprintf("%s (%s, %d iterations)", s.User.Name, mech, s.User.Iterations)
	if s.DepartingUser != "" {
		user += fmt.Sprintf("; %s is leaving: AlterUserScramCredentials deletes that credential", s.DepartingUser)
	}
	add("User", "%s", user)
	t := s.Token
	add("Token", "%s, owner %s, issued %s; expires %s unless renewed, at the latest %s", t.ID, t.Owner, utc(t.Issued), utc(t.Expiry()), utc(t.Max()))
	add("Client id", "%s, in every request header", s.ClientID)
	add("Clock", "%s (%d ms since the epoch), when the producer writes", utc(s.Clock), s.Clock)

	for _, t := range s.Topics {
		for _, p := range t.Partitions {
			off := ints(p.Offline)
			if off == "" {
				off = "—"
			}
			v.Partitions = append(v.Partitions, storyPartition{
				Name: t.Name + "-" + strconv.Itoa(int(p.Index)), Leader: strconv.Itoa(int(p.Leader)),
				Epoch: strconv.Itoa(int(p.LeaderEpoch)), Replicas: ints(p.Replicas), ISR: ints(p.ISR), Offline: off,
				Log: t.Name == l.Topic && p.Index == l.Partition,
			})
		}
	}
	return v
}

// storyHeads are the partitions table's column heads.
var storyHeads = [...]string{"Partition", "Leader", "Epoch", "Replicas", "ISR", "Offline"}

// cells returns the row's cells in storyHeads order.
func (p storyPartition) cells() [len(storyHeads)]string {
	return [...]string{p.Name, p.Leader, p.Epoch, p.Replicas, p.ISR, p.Offline}
}

func ints(xs []int32) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(int(x))
	}
	return strings.Join(s, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// utc writes ms since the epoch as an RFC 3339 time in UTC.
func utc(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}

// builtinStoryView is the story of the built-in examples, which every catalogue's examples use.
func builtinStoryView() (*storyView, error) {
	s, err := kafka.BuiltinStory()
	if err != nil {
		return nil, fmt.Errorf("reference: story: %w", err)
	}
	return newStoryView(s), nil
}
