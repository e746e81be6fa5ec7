package kafka

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sync"

	"gopkg.in/yaml.v3"
)

// StoryFile is the file of the examples folder that describes the cluster of the examples.
const StoryFile = "cluster.yaml"

// Story is the one small cluster every example draws its values from: its brokers and
// controller, its topics with their ids and partitions, the log of the partition the producer
// writes to, a consumer group and a share group, a transactional producer, a SCRAM user and a
// delegation token. It is read from examples/kafka/cluster.yaml (see ParseStory); the file's
// comments tell the story and its timeline.
type Story struct {
	ClusterID      string        `yaml:"clusterId"`
	ClientID       string        `yaml:"clientId"`
	Clock          int64         `yaml:"clock"` // ms since the epoch when the story's producer writes
	Controller     int32         `yaml:"controller"`
	ControllerPort int32         `yaml:"controllerPort"` // the brokers' controller listener (KRaft)
	Brokers        []StoryBroker `yaml:"brokers"`
	Topics         []StoryTopic  `yaml:"topics"`
	Log            StoryLog      `yaml:"log"`
	Group          StoryGroup    `yaml:"group"`
	ShareGroup     StoryShare    `yaml:"shareGroup"`
	Producer       StoryProducer `yaml:"producer"`
	User           StoryUser     `yaml:"user"`
	DepartingUser  string        `yaml:"departingUser"`
	Token          StoryToken    `yaml:"token"`
}

// StoryBroker is a broker of the story.
type StoryBroker struct {
	ID   int32  `yaml:"id"`
	Host string `yaml:"host"`
	Port int32  `yaml:"port"`
	Rack string `yaml:"rack"`
}

// StoryTopic is a topic of the story; ID is its uuid in 8-4-4-4-12 form.
type StoryTopic struct {
	Name       string           `yaml:"name"`
	ID         string           `yaml:"id"`
	Partitions []StoryPartition `yaml:"partitions"`
}

// UUID returns the topic id (ParseStory checked it).
func (t StoryTopic) UUID() UUID {
	u, _ := ParseUUID(t.ID)
	return u
}

// StoryPartition is a partition of a topic: its leader, the leader's epoch, the replicas,
// the in-sync replicas and the offline replicas, by broker id.
type StoryPartition struct {
	Index       int32   `yaml:"index"`
	Leader      int32   `yaml:"leader"`
	LeaderEpoch int32   `yaml:"leaderEpoch"`
	Replicas    []int32 `yaml:"replicas"`
	ISR         []int32 `yaml:"isr"`
	Offline     []int32 `yaml:"offline"`
}

// StoryLog is the partition the producer writes to, as Fetch and ListOffsets see it.
type StoryLog struct {
	Topic          string `yaml:"topic"`
	Partition      int32  `yaml:"partition"`
	LogStartOffset int64  `yaml:"logStartOffset"`
	BatchOffset    int64  `yaml:"batchOffset"`   // the base offset of the producer's batch
	HighWatermark  int64  `yaml:"highWatermark"` // after the batch and its commit marker
}

// StoryGroup is the classic consumer group.
type StoryGroup struct {
	ID           string        `yaml:"id"`
	ProtocolType string        `yaml:"protocolType"`
	Protocol     string        `yaml:"protocol"`
	Generation   int32         `yaml:"generation"`
	Members      []StoryMember `yaml:"members"`
}

// StoryMember is a member of the consumer group; the first is the leader.
type StoryMember struct {
	ID       string `yaml:"id"`
	Instance string `yaml:"instance"`
	Host     string `yaml:"host"`
}

// StoryShare is the share group (KIP-932) and its member.
type StoryShare struct {
	ID          string `yaml:"id"`
	Member      string `yaml:"member"`
	MemberEpoch int32  `yaml:"memberEpoch"`
}

// StoryProducer is the transactional producer.
type StoryProducer struct {
	ID                   int64  `yaml:"id"`
	Epoch                int16  `yaml:"epoch"`
	TransactionalID      string `yaml:"transactionalId"`
	TransactionTimeoutMs int32  `yaml:"transactionTimeoutMs"`
}

// StoryUser is a SCRAM user; Mechanism is Kafka's code (1 SCRAM-SHA-256, 2 SCRAM-SHA-512).
type StoryUser struct {
	Name       string `yaml:"name"`
	Mechanism  int8   `yaml:"mechanism"`
	Iterations int32  `yaml:"iterations"`
}

// StoryToken is the user's delegation token (KIP-48).
type StoryToken struct {
	ID            string `yaml:"id"`
	Owner         string `yaml:"owner"`
	Issued        int64  `yaml:"issued"`
	RenewPeriodMs int64  `yaml:"renewPeriodMs"`
	MaxLifetimeMs int64  `yaml:"maxLifetimeMs"`
}

// Expiry is when the token expires unless renewed: issued + renew period.
func (t StoryToken) Expiry() int64 { return t.Issued + t.RenewPeriodMs }

// Max is when the token expires at the latest: issued + max lifetime.
func (t StoryToken) Max() int64 { return t.Issued + t.MaxLifetimeMs }

// Broker returns the broker of an id.
func (s *Story) Broker(id int32) (StoryBroker, bool) {
	for _, b := range s.Brokers {
		if b.ID == id {
			return b, true
		}
	}
	return StoryBroker{}, false
}

// Topic returns the topic of a name.
func (s *Story) Topic(name string) (StoryTopic, bool) {
	for _, t := range s.Topics {
		if t.Name == name {
			return t, true
		}
	}
	return StoryTopic{}, false
}

// Partition returns the partition the producer writes to: the story's log.
func (s *Story) Partition() StoryPartition {
	t, _ := s.Topic(s.Log.Topic)
	for _, p := range t.Partitions {
		if p.Index == s.Log.Partition {
			return p
		}
	}
	return StoryPartition{}
}

// storyLine matches the position yaml.v3 puts in the messages of its TypeError.
var storyLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): (.*)$`) })

// ParseStory reads a cluster.yaml and checks its rules (see Story.Check). file names it in
// errors. Unknown keys are errors.
func ParseStory(file string, data []byte) (*Story, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Story
	if err := dec.Decode(&s); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			if m := storyLine().FindStringSubmatch(te.Errors[0]); m != nil {
				return nil, fmt.Errorf("kafka: %s:%s: %s", file, m[1], m[2])
			}
		}
		return nil, yamlSyntaxError(file, data, err)
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("kafka: %s: %w", file, err)
	}
	return &s, nil
}

// Check returns the first rule of the story that does not hold: every broker named exists,
// the controller too; each partition's replicas hold its ISR and its offline replicas, its ISR
// holds its leader, no offline replica is in the ISR, and no broker is listed twice; topic ids
// are uuids and distinct; the log names a partition of a topic and its offsets are ordered
// (log start ≤ batch < high watermark); the group has a member; the token's lifetime is at
// least its renew period and it was issued after the clock.
func (s *Story) Check() error {
	if s.ClusterID == "" || s.ClientID == "" {
		return fmt.Errorf("clusterId and clientId are required")
	}
	if len(s.Brokers) == 0 {
		return fmt.Errorf("no brokers")
	}
	seen := map[int32]bool{}
	for _, b := range s.Brokers {
		if seen[b.ID] {
			return fmt.Errorf("broker %d: listed twice", b.ID)
		}
		seen[b.ID] = true
		if b.Host == "" || b.Port <= 0 {
			return fmt.Errorf("broker %d: host and port are required", b.ID)
		}
	}
	if !seen[s.Controller] {
		return fmt.Errorf("controller %d: no such broker", s.Controller)
	}
	ids := map[UUID]string{}
	for _, t := range s.Topics {
		u, err := ParseUUID(t.ID)
		if err != nil {
			return fmt.Errorf("topic %s: id: %w", t.Name, err)
		}
		if other, dup := ids[u]; dup || u == (UUID{}) {
			return fmt.Errorf("topic %s: id %s is zero or also %s's", t.Name, t.ID, other)
		}
		ids[u] = t.Name
		for _, p := range t.Partitions {
			if err := s.checkPartition(p, seen); err != nil {
				return fmt.Errorf("topic %s partition %d: %w", t.Name, p.Index, err)
			}
		}
	}
	if s.Partition().Replicas == nil {
		return fmt.Errorf("log: no partition %d in topic %q", s.Log.Partition, s.Log.Topic)
	}
	if l := s.Log; !(0 <= l.LogStartOffset && l.LogStartOffset <= l.BatchOffset && l.BatchOffset < l.HighWatermark) {
		return fmt.Errorf("log: want 0 ≤ logStartOffset %d ≤ batchOffset %d < highWatermark %d", l.LogStartOffset, l.BatchOffset, l.HighWatermark)
	}
	if len(s.Group.Members) == 0 || s.Group.Generation <= 0 {
		return fmt.Errorf("group %s: want a member and a generation > 0", s.Group.ID)
	}
	if s.Producer.ID < 0 || s.Producer.Epoch < 0 || s.Producer.TransactionalID == "" {
		return fmt.Errorf("producer: want an id, an epoch and a transactional id")
	}
	if tk := s.Token; tk.RenewPeriodMs <= 0 || tk.MaxLifetimeMs < tk.RenewPeriodMs || tk.Issued <= s.Clock {
		return fmt.Errorf("token: want 0 < renewPeriodMs %d ≤ maxLifetimeMs %d and issued %d after the clock %d",
			tk.RenewPeriodMs, tk.MaxLifetimeMs, tk.Issued, s.Clock)
	}
	if s.DepartingUser == s.User.Name {
		return fmt.Errorf("departingUser: %s is the user of the story", s.DepartingUser)
	}
	return nil
}

func (s *Story) checkPartition(p StoryPartition, brokers map[int32]bool) error {
	for _, set := range [][]int32{p.Replicas, p.ISR, p.Offline, {p.Leader}} {
		for i, id := range set {
			if !brokers[id] {
				return fmt.Errorf("broker %d: no such broker", id)
			}
			if slices.Contains(set[:i], id) {
				return fmt.Errorf("broker %d: listed twice", id)
			}
		}
	}
	return ReplicaRules(p.Leader, p.Replicas, p.ISR, p.Offline)
}

// ReplicaRules checks a partition's replica sets as Kafka keeps them: the replicas hold the
// ISR and the offline replicas, the ISR holds the leader, and an offline replica is not in
// sync.
func ReplicaRules(leader int32, replicas, isr, offline []int32) error {
	for _, id := range isr {
		if !slices.Contains(replicas, id) {
			return fmt.Errorf("in-sync replica %d is not a replica %v", id, replicas)
		}
	}
	for _, id := range offline {
		if !slices.Contains(replicas, id) {
			return fmt.Errorf("offline replica %d is not a replica %v", id, replicas)
		}
		if slices.Contains(isr, id) {
			return fmt.Errorf("offline replica %d is in the ISR %v", id, isr)
		}
	}
	if leader >= 0 && !slices.Contains(isr, leader) {
		return fmt.Errorf("leader %d is not in the ISR %v", leader, isr)
	}
	return nil
}

// builtinStory is the story of the built-in examples, read once. It is a function, not a
// sync.OnceValues variable: a variable's closure is set at init, which links the YAML
// parser into every program that imports kafka (the browser decoder reads no story).
func builtinStory() (*Story, error) {
	storyOnce.Do(func() {
		data, err := fs.ReadFile(builtinExamples(), StoryFile)
		if err != nil {
			storyOnce.err = fmt.Errorf("kafka: examples: %w", err)
			return
		}
		storyOnce.s, storyOnce.err = ParseStory(StoryFile, data)
	})
	return storyOnce.s, storyOnce.err
}

var storyOnce struct {
	sync.Once
	s   *Story
	err error
}

// story returns the built-in story. Example returns its error first, so the generator may
// use the story as it is (empty if it failed to load).
func story() *Story {
	s, err := builtinStory()
	if err != nil {
		return &Story{}
	}
	return s
}

// BuiltinStory returns the cluster the built-in examples describe.
func BuiltinStory() (*Story, error) { return builtinStory() }
