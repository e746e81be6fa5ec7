package kafka

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// The kfake test: franz-go's kfake (a Kafka-protocol server, in process on 127.0.0.1) is
// prepared as the story says, and every request it implements is sent at every version it
// accepts, encoded by us from the story's example, over TCP as a client sends it. Every
// response must decode with our decoder and carry error code 0 everywhere, except the cases
// of kfakeExceptions.
//
// A client learns some values from the server, and so does the test: kfake draws topic ids and
// producer ids at random and assigns member ids, so the story's are replaced by the ones kfake
// gave before a frame is encoded (kfakeClient.learned), as a client would after Metadata,
// InitProducerId and JoinGroup. Nothing else of the story's frames is changed.

// kfakeExceptions are the APIs whose responses from kfake carry a non-zero error code, with
// the reason: a limit of kfake (file and line in franz-go's pkg/kfake at the pinned version)
// or of sending one example alone. The test fails if an API listed here comes back clean at
// every version, so the table stays true.
var kfakeExceptions = map[string]kfakeException{
	"OffsetCommit": {[]int16{0}, "v0 carries no member id or generation, and a group with members takes " +
		"commits from its members only: UNKNOWN_MEMBER_ID (kfake groups.go:1266, as Kafka's GroupCoordinator); " +
		"the story's commit is its member's, which v0 cannot say"},
	"UpdateFeatures": {nil, "kfake finalizes every feature at the highest level it supports (metadata.version " +
		"33), so the story's upgrade of a 4.1 cluster from level 25 to 27 is a downgrade to it: " +
		"INVALID_UPDATE_VERSION \"downgrade not allowed\" (kfake 57_update_features.go:124)"},
}

// kfakeException names the versions (nil: all) an exception covers, and why.
type kfakeException struct {
	versions []int16
	reason   string
}

// kfakeSteps are the requests of the story sent before an API's own, so that kfake is in the
// state the example describes (the producer's transaction open, the member joined, ...).
var kfakeSteps = map[string][]string{
	"Produce":                      {"InitProducerId", "AddPartitionsToTxn"},
	"AddPartitionsToTxn":           {"InitProducerId"},
	"AddOffsetsToTxn":              {"InitProducerId"},
	"TxnOffsetCommit":              {"InitProducerId", "AddOffsetsToTxn", "JoinGroup", "SyncGroup"},
	"EndTxn":                       {"InitProducerId", "AddPartitionsToTxn", "Produce"},
	"Fetch":                        {"InitProducerId", "AddPartitionsToTxn", "Produce", "EndTxn"},
	"DescribeTransactions":         {"InitProducerId", "AddPartitionsToTxn", "Produce"},
	"ListTransactions":             {"InitProducerId", "AddPartitionsToTxn", "Produce"},
	"DescribeProducers":            {"InitProducerId", "AddPartitionsToTxn", "Produce"},
	"JoinGroup":                    {"JoinGroup"},
	"SyncGroup":                    {"JoinGroup"},
	"Heartbeat":                    {"JoinGroup", "SyncGroup"},
	"LeaveGroup":                   {"JoinGroup", "SyncGroup"},
	"OffsetCommit":                 {"JoinGroup", "SyncGroup"},
	"OffsetFetch":                  {"JoinGroup", "SyncGroup", "OffsetCommit"},
	"DescribeGroups":               {"JoinGroup", "SyncGroup"},
	"ListGroups":                   {"JoinGroup", "SyncGroup"},
	"DeleteGroups":                 {"JoinGroup", "SyncGroup", "OffsetCommit", "LeaveGroup"},
	"OffsetDelete":                 {"JoinGroup", "SyncGroup", "OffsetCommit", "LeaveGroup"},
	"DeleteTopics":                 {"CreateTopics"},
	"ShareGroupHeartbeat":          {"ShareGroupHeartbeat:join"},
	"ShareFetch":                   {"InitProducerId", "AddPartitionsToTxn", "Produce", "EndTxn", "AlterShareGroupOffsets", "ShareGroupHeartbeat:join"},
	"ShareAcknowledge":             {"InitProducerId", "AddPartitionsToTxn", "Produce", "EndTxn", "AlterShareGroupOffsets", "ShareGroupHeartbeat:join", "ShareFetch"},
	"ShareGroupDescribe":           {"ShareGroupHeartbeat:join"},
	"DescribeShareGroupOffsets":    {"ShareGroupHeartbeat:join"},
	"DeleteShareGroupOffsets":      {"AlterShareGroupOffsets"},
	"ConsumerGroupHeartbeat":       {"ConsumerGroupHeartbeat:join"},
	"ConsumerGroupDescribe":        {"ConsumerGroupHeartbeat:join"},
	"SaslAuthenticate":             {"SaslHandshake"},
	"PushTelemetry":                {"GetTelemetrySubscriptions"},
	"DescribeUserScramCredentials": {"AlterUserScramCredentials"},
}

// kfakeStepVersion caps the version of a step: AddPartitionsToTxn v4+ is the brokers' batched
// form (KIP-890), a client sends v3.
var kfakeStepVersion = map[string]int16{"AddPartitionsToTxn": 3}

// kfakeRoute says which broker an API goes to: the leader of the story's partition, the
// coordinator of the group, the share group or the transactional id, else any.
var kfakeRoute = map[string]string{
	"Produce": "leader", "Fetch": "leader", "ListOffsets": "leader", "OffsetForLeaderEpoch": "leader",
	"DeleteRecords": "leader", "ShareFetch": "leader", "ShareAcknowledge": "leader",
	"JoinGroup": "group", "SyncGroup": "group", "Heartbeat": "group", "LeaveGroup": "group",
	"OffsetCommit": "group", "OffsetFetch": "group", "DescribeGroups": "group", "DeleteGroups": "group",
	"OffsetDelete": "group", "ConsumerGroupHeartbeat": "group", "ConsumerGroupDescribe": "group",
	"TxnOffsetCommit":     "group",
	"ShareGroupHeartbeat": "share", "ShareGroupDescribe": "share", "DescribeShareGroupOffsets": "share",
	"AlterShareGroupOffsets": "share", "DeleteShareGroupOffsets": "share",
	"InitProducerId": "txn", "AddPartitionsToTxn": "txn", "AddOffsetsToTxn": "txn", "EndTxn": "txn",
	"DescribeTransactions": "txn",
	"WriteTxnMarkers":      "leader", "DescribeProducers": "leader",
	"CreateTopics": "controller", "DeleteTopics": "controller", "CreatePartitions": "controller",
	"AlterUserScramCredentials": "controller",
}

// kfakeClient is a connection to each broker of a kfake cluster prepared as the story says.
type kfakeClient struct {
	t      testing.TB
	cats   []*Catalog // newest release first
	s      *Story
	known  func() *knownFields
	kf     *kfake.Cluster
	addrs  map[int32]string
	conns  map[int32]net.Conn
	corr   int32
	vers   map[int16][2]int16 // what kfake accepts: API key → min, max
	ids    map[UUID]UUID      // the story's topic ids → kfake's
	pid    int64              // the producer id and epoch kfake gave, or -1
	epoch  int16
	member string // the member id kfake gave, or ""
	gen    int64
	share  string   // the share group member id kfake gave, or ""
	mepoch int64    // the member epoch of a KIP-848 heartbeat, or -1
	telem  [2]any   // the client instance id and subscription id kfake gave
	sent   [][]byte // request frames sent, for the Produce/Fetch comparison
	frames []*Frame // the responses, in order
}

func newKfakeClient(t testing.TB, cats []*Catalog, s *Story, known func() *knownFields) *kfakeClient {
	t.Helper()
	// kfake makes its last broker the controller (cluster.go:282), and keeps it when that
	// broker is removed: start with brokers 0 to 3 and remove 0, so the story's brokers 1 to 3
	// remain and 3, the story's controller, is kfake's.
	kf, err := kfake.NewCluster(kfake.NumBrokers(4), kfake.ClusterID(s.ClusterID),
		kfake.User("PLAIN", s.User.Name, s.User.Name+"-secret"),
		kfake.User("SCRAM-SHA-256", s.User.Name, s.User.Name+"-secret"),
		kfake.User("SCRAM-SHA-256", s.DepartingUser, s.DepartingUser+"-secret"))
	if err != nil {
		t.Fatal(err)
	}
	k := &kfakeClient{t: t, cats: cats, s: s, known: known, kf: kf, conns: map[int32]net.Conn{}, pid: -1, gen: -1, mepoch: -1}
	t.Cleanup(k.close)
	if err := kf.RemoveNode(0); err != nil {
		t.Fatal(err)
	}
	for _, tp := range s.Topics {
		if tp.Name == "shipments" { // CreateTopics creates it
			continue
		}
		if err := kf.CreateTopic(tp.Name, int32(len(tp.Partitions)), nil); err != nil {
			t.Fatal(err)
		}
	}
	// The story's partition: led by its leader, in its leader epoch.
	p := s.Partition()
	for kf.PartitionInfo(s.Log.Topic, p.Index).Epoch < p.LeaderEpoch {
		if err := kf.MoveTopicPartition(s.Log.Topic, p.Index, p.Leader); err != nil {
			t.Fatal(err)
		}
	}
	if got := kf.PartitionInfo(s.Log.Topic, p.Index); got.Epoch != p.LeaderEpoch || kf.LeaderFor(s.Log.Topic, p.Index) != p.Leader {
		t.Fatalf("kfake: %s-%d led by %d in epoch %d, want %d in %d", s.Log.Topic, p.Index, kf.LeaderFor(s.Log.Topic, p.Index), got.Epoch, p.Leader, p.LeaderEpoch)
	}
	// Where the brokers are: from a Metadata response, as a client learns it (prepare).
	k.addrs = map[int32]string{-1: kf.ListenAddrs()[0]}
	k.ids = map[UUID]UUID{}
	return k
}

func (k *kfakeClient) close() {
	for _, c := range k.conns {
		c.Close()
	}
	k.kf.Close()
}

// api returns the API of a name in the newest release that has it at version v (v < 0: the
// newest release that has it).
func (k *kfakeClient) api(name string, v int16) *API {
	for _, c := range k.cats {
		if a, ok := c.Lookup(name); ok && (v < 0 || a.Request.ValidIn(v)) {
			return a
		}
	}
	return nil
}

func (k *kfakeClient) catalog(api *API) *Catalog {
	for _, c := range k.cats {
		if a, ok := c.Lookup(api.Name); ok && a == api {
			return c
		}
	}
	return nil
}

// top returns the highest version of an API that both kfake and the schemas know; nil when
// no release here has the API (a folder of releases older than it) or kfake does not
// implement it.
func (k *kfakeClient) top(name string) (*API, int16) {
	a := k.api(name, -1)
	if a == nil {
		return nil, -1
	}
	r, ok := k.vers[a.Key]
	if !ok {
		return nil, -1
	}
	for v := min(r[1], a.Version); v >= r[0]; v-- {
		if b := k.api(name, v); b != nil {
			return b, v
		}
	}
	return nil, -1
}

// body is the story's example of an API's request at v, with what the server assigned.
func (k *kfakeClient) body(api *API, v int16) Values {
	vals := storyExample(k.t, api, false, v, k.known)
	k.learned(vals)
	return vals
}

// learned puts what kfake assigned into a request's values: topic ids, the producer id and
// epoch (also in record batches), the member id and generation.
func (k *kfakeClient) learned(v Values) {
	for name, x := range v {
		switch x := x.(type) {
		case UUID:
			if id, ok := k.ids[x]; ok {
				v[name] = id
			}
			if name == "ClientInstanceId" && k.telem[0] != nil {
				v[name] = k.telem[0]
			}
		case int64:
			switch {
			case k.pid >= 0 && name == "ProducerId" && x == k.s.Producer.ID:
				v[name] = k.pid
			case k.pid >= 0 && name == "ProducerEpoch" && x == int64(k.s.Producer.Epoch):
				v[name] = int64(k.epoch)
			case k.pid >= 0 && name == "V3AndBelowProducerId" && x == k.s.Producer.ID:
				v[name] = k.pid
			case k.pid >= 0 && name == "V3AndBelowProducerEpoch" && x == int64(k.s.Producer.Epoch):
				v[name] = int64(k.epoch)
			case k.gen >= 0 && (name == "GenerationId" || name == "GenerationIdOrMemberEpoch") && x == int64(k.s.Group.Generation):
				v[name] = k.gen
			case k.mepoch >= 0 && name == "MemberEpoch" && x == int64(k.s.ShareGroup.MemberEpoch):
				v[name] = k.mepoch
			case k.telem[1] != nil && name == "SubscriptionId":
				v[name] = k.telem[1]
			}
		case string:
			switch {
			case name == "MemberId" && x == k.s.Group.Members[0].ID:
				v[name] = k.member // "" before the first join: the member asks for an id
			case name == "MemberId" && x == k.s.ShareGroup.Member && k.share != "":
				v[name] = k.share
			}
		case Values:
			k.learned(x)
		case []any:
			for i, e := range x {
				switch e := e.(type) {
				case Values:
					k.learned(e)
				case UUID:
					if id, ok := k.ids[e]; ok {
						x[i] = id
					}
				}
			}
		case []*RecordBatch:
			out := make([]*RecordBatch, len(x))
			for i, b := range x {
				c := *b
				if k.pid >= 0 && c.ProducerID == k.s.Producer.ID {
					c.ProducerID, c.ProducerEpoch = k.pid, k.epoch
				}
				out[i] = &c
			}
			v[name] = out
		}
	}
}

// node is the broker an API goes to.
func (k *kfakeClient) node(name string) int32 {
	switch kfakeRoute[name] {
	case "leader":
		return k.kf.LeaderFor(k.s.Log.Topic, k.s.Log.Partition)
	case "group":
		return k.kf.CoordinatorFor(k.s.Group.ID)
	case "share":
		return k.kf.CoordinatorFor(k.s.ShareGroup.ID)
	case "txn":
		return k.kf.CoordinatorFor(k.s.Producer.TransactionalID)
	case "controller":
		return k.s.Controller
	}
	return -1
}

// roundTrip sends a request and decodes the response.
func (k *kfakeClient) roundTrip(api *API, v int16, body Values) (*Frame, error) {
	c := k.catalog(api)
	k.corr++
	req, err := c.Encode(Message{API: api, Version: v, CorrelationID: k.corr, ClientID: k.s.ClientID, Body: body})
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	node := k.node(api.Name)
	if _, ok := k.addrs[node]; !ok {
		node = -1
	}
	conn, ok := k.conns[node]
	if !ok {
		conn, err = net.DialTimeout("tcp", k.addrs[node], 5*time.Second)
		if err != nil {
			return nil, err
		}
		k.conns[node] = conn
	}
	// A hang guard only, far beyond what any load makes of a round trip to the fake cluster
	// in this process.
	conn.SetDeadline(time.Now().Add(5 * time.Minute))
	if _, err := conn.Write(req.Bytes); err != nil {
		return nil, err
	}
	k.sent = append(k.sent, req.Bytes)
	var size [4]byte
	if _, err := io.ReadFull(conn, size[:]); err != nil {
		delete(k.conns, node)
		conn.Close()
		return nil, fmt.Errorf("no response: %w", err)
	}
	data := make([]byte, 4+binary.BigEndian.Uint32(size[:]))
	copy(data, size[:])
	if _, err := io.ReadFull(conn, data[4:]); err != nil {
		return nil, err
	}
	f, err := c.Decode(data, DecodeOptions{Response: true, API: api, Version: v})
	if err != nil {
		return nil, fmt.Errorf("decode: %w (% x)", err, data)
	}
	if f.CorrelationID != k.corr {
		return nil, fmt.Errorf("correlation id %d, want %d", f.CorrelationID, k.corr)
	}
	k.frames = append(k.frames, f)
	k.learn(api.Name, f.Body)
	return f, nil
}

// learn keeps what a response assigned.
func (k *kfakeClient) learn(name string, v Values) {
	switch name {
	case "Metadata":
		for _, b := range list(v, "Brokers") {
			b := b.(Values)
			k.addrs[int32(b["NodeId"].(int64))] = net.JoinHostPort(b["Host"].(string), strconv.Itoa(int(b["Port"].(int64))))
		}
		for _, tp := range list(v, "Topics") {
			tp := tp.(Values)
			name, _ := tp["Name"].(string)
			if st, ok := k.s.Topic(name); ok {
				if id, ok := tp["TopicId"].(UUID); ok {
					k.ids[st.UUID()] = id
				}
			}
		}
	case "InitProducerId":
		if v["ErrorCode"] == int64(0) {
			k.pid, k.epoch = v["ProducerId"].(int64), int16(v["ProducerEpoch"].(int64))
		}
	case "JoinGroup":
		if id, ok := v["MemberId"].(string); ok && id != "" {
			k.member = id
		}
		if v["ErrorCode"] == int64(0) {
			k.gen = v["GenerationId"].(int64)
		}
	case "ShareGroupHeartbeat", "ConsumerGroupHeartbeat":
		if v["ErrorCode"] == int64(0) {
			k.mepoch = v["MemberEpoch"].(int64)
			if id, ok := v["MemberId"].(string); ok && name == "ShareGroupHeartbeat" {
				k.share = id
			} else if ok {
				k.member = id
			}
		}
	case "GetTelemetrySubscriptions":
		if v["ErrorCode"] == int64(0) {
			k.telem = [2]any{v["ClientInstanceId"], v["SubscriptionId"]}
		}
	}
}

// nonZeroErrors lists the non-zero error codes of a response's values: "Path=code".
func nonZeroErrors(v Values, path string, out *[]string) {
	keys := make([]string, 0, len(v))
	for name := range v {
		keys = append(keys, name)
	}
	sort.Strings(keys)
	for _, name := range keys {
		p := join(path, name)
		switch x := v[name].(type) {
		case int64:
			if strings.HasSuffix(name, "ErrorCode") && x != 0 {
				msg := ""
				if m, ok := v[strings.TrimSuffix(name, "Code")+"Message"].(string); ok {
					msg = fmt.Sprintf(" (%q)", m)
				}
				*out = append(*out, fmt.Sprintf("%s=%d %s%s", p, x, ErrorName(int16(x)), msg))
			}
		case Values:
			nonZeroErrors(x, p, out)
		case []any:
			for i, e := range x {
				if e, ok := e.(Values); ok {
					nonZeroErrors(e, p+"["+strconv.Itoa(i)+"]", out)
				}
			}
		}
	}
}

// prepare sends the story's first requests: ApiVersions (what kfake accepts), Metadata (the
// brokers and topic ids), and the records before the story's batch.
func (k *kfakeClient) prepare() error {
	av := k.api("ApiVersions", 3)
	if av == nil {
		return errors.New("ApiVersions v3: no release here has it")
	}
	f, err := k.roundTrip(av, 3, k.body(av, 3))
	if err != nil {
		return fmt.Errorf("ApiVersions: %w", err)
	}
	k.vers = map[int16][2]int16{}
	for _, a := range list(f.Body, "ApiKeys") {
		a := a.(Values)
		k.vers[int16(a["ApiKey"].(int64))] = [2]int16{int16(a["MinVersion"].(int64)), int16(a["MaxVersion"].(int64))}
	}
	md, v := k.top("Metadata")
	if md == nil {
		return errors.New("Metadata: no version both kfake and a release here know")
	}
	if _, err := k.roundTrip(md, v, k.body(md, v)); err != nil {
		return fmt.Errorf("Metadata: %w", err)
	}
	// Offsets 0-41 of the story's partition: one batch of 42 records, from no producer.
	pr, v := k.top("Produce")
	if pr == nil {
		return errors.New("Produce: no version both kfake and a release here know")
	}
	body := storyExample(k.t, pr, false, v, k.known)
	delete(body, "TransactionalId")
	if pr.Request.ValidIn(v) {
		body["TransactionalId"] = nil
	}
	earlier := &RecordBatch{PartitionLeaderEpoch: -1, LastOffsetDelta: 41, BaseTimestamp: k.s.Clock - 60000, MaxTimestamp: k.s.Clock - 60000,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}
	for i := range 42 {
		earlier.Records = append(earlier.Records, Record{OffsetDelta: int64(i), Value: []byte("earlier")})
	}
	findStruct(body, "Records")["Records"] = []*RecordBatch{earlier}
	k.learned(body)
	f, err = k.roundTrip(pr, v, body)
	if err != nil {
		return fmt.Errorf("Produce (the earlier records): %w", err)
	}
	var errs []string
	nonZeroErrors(f.Body, "", &errs)
	if len(errs) > 0 {
		return fmt.Errorf("Produce (the earlier records): %v", errs)
	}
	return nil
}

// step sends one request of the story at the highest version both sides know, retrying a
// JoinGroup that kfake answers MEMBER_ID_REQUIRED with the member id it gave, as a client does.
//
// "API:join" is a KIP-848 or KIP-932 heartbeat that joins its group: member epoch 0.
func (k *kfakeClient) step(name string) error {
	name, join := strings.CutSuffix(name, ":join")
	api, v := k.top(name)
	if api == nil {
		if k.api(name, -1) == nil {
			return fmt.Errorf("%s: no release here has it", name)
		}
		return fmt.Errorf("%s: kfake does not implement it", name)
	}
	if top, ok := kfakeStepVersion[name]; ok && v > top {
		v = top
		if api = k.api(name, v); api == nil {
			return fmt.Errorf("%s v%d: no release here has it", name, v)
		}
	}
	for try := 0; try < 2; try++ {
		body := k.body(api, v)
		if join {
			body["MemberEpoch"] = int64(0)
			if _, ok := body["TopicPartitions"]; ok {
				body["TopicPartitions"] = []any{} // a joining member owns nothing
			}
		}
		f, err := k.roundTrip(api, v, body)
		if err != nil {
			return fmt.Errorf("%s v%d: %w", name, v, err)
		}
		var errs []string
		nonZeroErrors(f.Body, "", &errs)
		if len(errs) == 0 {
			return nil
		}
		if name != "JoinGroup" || f.Body["ErrorCode"] != int64(79) { // MEMBER_ID_REQUIRED
			return fmt.Errorf("%s v%d: %v", name, v, errs)
		}
	}
	return fmt.Errorf("%s: no member id", name)
}

type kfakeResult struct {
	api                       string
	key                       int16
	versions, answered, clean int
	errs                      []string // version: error codes
	unclean                   []int16
	lo, hi                    int16 // the versions sent
}

func TestKfake(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a kfake cluster per API version")
	}
	s, err := BuiltinStory()
	if err != nil {
		t.Fatal(err)
	}
	rels := testReleases(t)
	var cats []*Catalog
	for i := len(rels) - 1; i >= 0; i-- {
		cats = append(cats, testCatalog(t, rels[i]))
	}
	known := sync.OnceValue(loadKnownFields)
	probe := newKfakeClient(t, cats, s, known)
	if err := probe.prepare(); err != nil {
		t.Fatal(err)
	}
	var keys []int16
	for key := range probe.vers {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	var results []kfakeResult
	sent := 0
	for _, key := range keys {
		var api *API
		for _, c := range cats {
			if a, ok := c.Lookup(strconv.Itoa(int(key))); ok {
				api = a
				break
			}
		}
		if api == nil {
			t.Logf("key %d: kfake implements it, no release here has it", key)
			continue
		}
		r := kfakeResult{api: api.Name, key: key, lo: -1}
		lo, hi := probe.vers[key][0], probe.vers[key][1]
		for v := lo; v <= hi; v++ {
			a := probe.api(api.Name, v)
			if a == nil {
				t.Logf("%s v%d: kfake accepts it, no release here has it", api.Name, v)
				continue
			}
			r.versions++
			if r.lo < 0 {
				r.lo = v
			}
			r.hi = v
			k := newKfakeClient(t, cats, s, known)
			if err := k.prepare(); err != nil {
				t.Fatalf("%s v%d: preparing kfake: %v", api.Name, v, err)
			}
			for _, step := range kfakeSteps[api.Name] {
				if err := k.step(step); err != nil {
					r.errs = append(r.errs, fmt.Sprintf("v%d: before it, %v", v, err))
				}
			}
			f, err := k.roundTrip(a, v, k.body(a, v))
			if err != nil {
				t.Errorf("%s v%d: %v", api.Name, v, err)
				continue
			}
			r.answered++
			var codes []string
			nonZeroErrors(f.Body, "", &codes)
			if len(codes) == 0 {
				r.clean++
			} else {
				r.unclean = append(r.unclean, v)
				r.errs = append(r.errs, fmt.Sprintf("v%d: %s", v, strings.Join(codes, " ")))
			}
			if api.Name == "Produce" && len(codes) == 0 {
				if got := findStruct(f.Body, "BaseOffset")["BaseOffset"]; got != k.s.Log.BatchOffset {
					t.Errorf("Produce v%d: base offset %v, the story says %d", v, got, k.s.Log.BatchOffset)
				}
			}
			if api.Name == "Fetch" && len(codes) == 0 {
				k.checkFetch(t, f)
			}
			sent += len(k.sent)
			k.close()
		}
		results = append(results, r)
	}
	answered, clean, named := 0, 0, 0
	for _, r := range results {
		ex, listed := kfakeExceptions[r.api]
		covered := listed && (ex.versions == nil && r.clean == 0 || ex.versions != nil && slices.Equal(ex.versions, r.unclean))
		switch {
		case r.answered == 0:
			t.Logf("%-28s no version answered", r.api)
		case r.clean == r.versions && listed:
			t.Errorf("%s: clean at every version, but the exceptions say: %s", r.api, ex.reason)
		case r.clean == r.versions:
			t.Logf("%-28s answered, clean (v%d to v%d)", r.api, r.lo, r.hi)
		case covered:
			named++
			t.Logf("%-28s answered, named exception: %s (%d of %d versions clean: %s)", r.api, ex.reason, r.clean, r.versions, strings.Join(r.errs, "; "))
		default:
			t.Errorf("%-28s answered, %d of %d versions clean: %s", r.api, r.clean, r.versions, strings.Join(r.errs, "; "))
		}
		if r.answered > 0 {
			answered++
		}
		if r.clean == r.versions {
			clean++
		}
	}
	var missing []string
	for _, a := range cats[0].APIs {
		if _, ok := probe.vers[a.Key]; !ok {
			missing = append(missing, a.Name)
		}
	}
	t.Logf("not implemented by kfake, of Kafka %s's %d APIs: %s", cats[0].APIs[0].Release, len(cats[0].APIs), strings.Join(missing, ", "))
	t.Logf("kfake implements %d APIs; %d answered, %d clean at every version, %d named exceptions; %d requests sent", len(results), answered, clean, named, sent)
}

// checkFetch compares the batch Fetch returned with the one Produce sent: the same bytes bar
// what the leader stamps (the base offset, the partition leader epoch) and the producer id
// and epoch kfake drew.
func (k *kfakeClient) checkFetch(t *testing.T, f *Frame) {
	fp := findStruct(f.Body, "HighWatermark")
	got := batchesIn(fp)
	if len(got) == 0 {
		t.Errorf("Fetch v%d: no batch returned", f.Version)
		return
	}
	want := exampleBatch(k.s)
	want.ProducerID, want.ProducerEpoch = k.pid, k.epoch
	stamped := *want
	stamped.BaseOffset, stamped.PartitionLeaderEpoch = k.s.Log.BatchOffset, k.s.Partition().LeaderEpoch
	a, b := batchBytes(t, &stamped), batchBytes(t, got[0])
	if !bytes.Equal(a, b) {
		t.Errorf("Fetch v%d: the batch differs from Produce's, stamped at %d, epoch %d:\n got  % x\n want % x", f.Version, stamped.BaseOffset, stamped.PartitionLeaderEpoch, b, a)
	}
	if hw := fp["HighWatermark"].(int64); hw != k.s.Log.HighWatermark {
		t.Errorf("Fetch v%d: high watermark %d, the story says %d", f.Version, hw, k.s.Log.HighWatermark)
	}
	if len(got) < 2 || got[1].Attributes&attrControl == 0 || got[1].BaseOffset != k.s.Log.BatchOffset+1 {
		t.Errorf("Fetch v%d: no commit marker after the batch", f.Version)
	} else if bytes.Equal(a, b) {
		t.Logf("Fetch v%d: offset %d holds Produce's batch byte for byte, bar the base offset and leader epoch kfake stamped (%d, %d) and the producer id and epoch it drew; %d holds the commit marker",
			f.Version, got[0].BaseOffset, got[0].BaseOffset, got[0].PartitionLeaderEpoch, got[1].BaseOffset)
	}
}
