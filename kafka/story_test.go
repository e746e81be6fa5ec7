package kafka

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// TestStoryFile checks the built-in story and that its client id is the examples' one.
func TestStoryFile(t *testing.T) {
	s, err := BuiltinStory()
	if err != nil {
		t.Fatal(err)
	}
	if s.ClientID != exampleClientID {
		t.Errorf("the story's client id %q is not the examples' %q", s.ClientID, exampleClientID)
	}
	if got := s.Token.Expiry() - s.Token.Issued; got != s.Token.RenewPeriodMs {
		t.Errorf("token expiry - issue = %d, want the renew period %d", got, s.Token.RenewPeriodMs)
	}
}

// TestStoryRules breaks the built-in story one rule at a time: each must be reported.
func TestStoryRules(t *testing.T) {
	good, err := BuiltinStory()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		break_ func(s *Story)
		want   string
	}{
		{"isr not in replicas", func(s *Story) {
			s.Topics[0].Partitions[0].ISR = []int32{1, 2, 3}
			s.Topics[0].Partitions[0].Replicas = []int32{1, 2}
		},
			"in-sync replica 3 is not a replica [1 2]"},
		{"offline not in replicas", func(s *Story) { s.Topics[0].Partitions[0].Replicas = []int32{1, 2} }, "offline replica 3 is not a replica [1 2]"},
		{"offline in isr", func(s *Story) { s.Topics[0].Partitions[0].ISR = []int32{1, 2, 3} }, "offline replica 3 is in the ISR [1 2 3]"},
		{"leader not in isr", func(s *Story) { s.Topics[0].Partitions[0].Leader = 3 }, "leader 3 is not in the ISR [1 2]"},
		{"unknown broker", func(s *Story) { s.Topics[0].Partitions[1].Replicas = []int32{2, 3, 9} }, "broker 9: no such broker"},
		{"unknown controller", func(s *Story) { s.Controller = 7 }, "controller 7: no such broker"},
		{"duplicate topic id", func(s *Story) { s.Topics[1].ID = s.Topics[0].ID }, "is zero or also orders's"},
		{"log offsets", func(s *Story) { s.Log.HighWatermark = s.Log.BatchOffset }, "log: want 0 ≤ logStartOffset"},
		{"log partition", func(s *Story) { s.Log.Partition = 9 }, "log: no partition 9"},
		{"token lifetime", func(s *Story) { s.Token.MaxLifetimeMs = s.Token.RenewPeriodMs - 1 }, "token: want 0 < renewPeriodMs"},
		{"token before the clock", func(s *Story) { s.Token.Issued = s.Clock }, "token: want 0 < renewPeriodMs"},
		{"departing user", func(s *Story) { s.DepartingUser = s.User.Name }, "departingUser: alice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := cloneStory(good)
			tc.break_(s)
			err := s.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if _, err := ParseStory("cluster.yaml", []byte("clusterId: x\nclientid: y\n")); err == nil || !strings.Contains(err.Error(), "cluster.yaml:2") {
		t.Errorf("unknown key: %v", err)
	}
}

func cloneStory(s *Story) *Story {
	c := *s
	c.Topics = nil
	for _, t := range s.Topics {
		t.Partitions = slices.Clone(t.Partitions)
		for i, p := range t.Partitions {
			t.Partitions[i].Replicas = slices.Clone(p.Replicas)
			t.Partitions[i].ISR = slices.Clone(p.ISR)
			t.Partitions[i].Offline = slices.Clone(p.Offline)
		}
		c.Topics = append(c.Topics, t)
	}
	return &c
}

// storyExample is the example body of api at version v, with the built-in overrides.
func storyExample(t testing.TB, api *API, resp bool, v int16, known func() *knownFields) Values {
	t.Helper()
	file, data, err := exampleFile(builtinExamples(), api, known)
	if err != nil {
		t.Fatal(err)
	}
	vals, _, _, err := example(api, resp, v, file, data, known)
	if err != nil {
		t.Fatal(err)
	}
	return vals
}

// TestStoryFrames checks the story's rules over the example values of every version of every
// API of every release: the replica sets of every partition, the brokers, topics, topic ids,
// producers and hosts every frame names, the timestamps, and rules between fields of one
// frame (see storyChecker).
func TestStoryFrames(t *testing.T) {
	s, err := BuiltinStory()
	if err != nil {
		t.Fatal(err)
	}
	known := sync.OnceValue(loadKnownFields)
	for _, rel := range testReleases(t) {
		t.Run(rel, func(t *testing.T) {
			c := testCatalog(t, rel)
			frames := 0
			for _, api := range c.APIs {
				lo, _ := api.Request.ValidVersions.Lowest()
				for v := lo; v <= api.Version; v++ {
					if !api.Request.ValidIn(v) {
						continue
					}
					for _, resp := range []bool{false, true} {
						spec := api.Request
						if resp {
							spec = api.Response
						}
						vals := storyExample(t, api, resp, v, known)
						ck := &storyChecker{s: s, v: v}
						ck.walk(spec.Fields, vals, "")
						ck.message(api.Name, resp, vals)
						for _, e := range ck.errs {
							t.Errorf("%s v%d %s: %s", api.Name, v, side(resp), e)
						}
						frames++
					}
				}
			}
			t.Logf("Kafka %s: %d example bodies keep the story's rules", rel, frames)
		})
	}
}

// TestStoryProduceFetch: the batch Fetch returns is the batch Produce wrote, at the offset
// Produce's response gave, stamped with the leader's epoch, followed by the commit marker; the
// high watermark is past both; aborted transactions name transactional batches.
func TestStoryProduceFetch(t *testing.T) {
	s, _ := BuiltinStory()
	known := sync.OnceValue(loadKnownFields)
	for _, rel := range testReleases(t) {
		c := testCatalog(t, rel)
		produce, _ := c.Lookup("Produce")
		fetch, _ := c.Lookup("Fetch")
		preq := storyExample(t, produce, false, produce.Version, known)
		presp := storyExample(t, produce, true, produce.Version, known)
		fresp := storyExample(t, fetch, true, fetch.Version, known)
		sentAll := batchesIn(findStruct(preq, "Acks"))
		if sentAll == nil {
			t.Logf("Kafka %s: Produce's records are not record batches in this schema (a bytes field)", rel)
			continue
		}
		sent := sentAll[0]
		pr := findStruct(presp, "BaseOffset")
		fp := findStruct(fresp, "HighWatermark")
		got := batchesIn(fp)
		base := pr["BaseOffset"].(int64)
		want := *sent
		want.BaseOffset, want.PartitionLeaderEpoch = base, s.Partition().LeaderEpoch
		a, b := batchBytes(t, &want), batchBytes(t, got[0])
		if string(a) != string(b) {
			t.Errorf("Kafka %s: Fetch's batch is not Produce's at offset %d:\n % x\n % x", rel, base, b, a)
		}
		if sent.Attributes&attrTransactional == 0 || preq["TransactionalId"] == nil {
			t.Errorf("Kafka %s: the producer of the story writes in a transaction", rel)
		}
		last := got[len(got)-1]
		end := last.BaseOffset + int64(last.LastOffsetDelta) + 1
		if hw := fp["HighWatermark"].(int64); hw != end || hw != s.Log.HighWatermark {
			t.Errorf("Kafka %s: high watermark %d, the batches end at %d, the story says %d", rel, hw, end, s.Log.HighWatermark)
		}
		if last.Attributes&attrControl == 0 || last.BaseOffset != base+1 {
			t.Errorf("Kafka %s: the commit marker should follow the batch: %+v", rel, last)
		}
	}
}

func side(resp bool) string {
	if resp {
		return "response"
	}
	return "request"
}

// findStruct returns the first struct of v (depth first) that has the field name.
func findStruct(v Values, name string) Values {
	if _, ok := v[name]; ok {
		return v
	}
	for _, x := range v {
		switch x := x.(type) {
		case Values:
			if f := findStruct(x, name); f != nil {
				return f
			}
		case []any:
			for _, e := range x {
				if e, ok := e.(Values); ok {
					if f := findStruct(e, name); f != nil {
						return f
					}
				}
			}
		}
	}
	return nil
}

// batchesIn returns the record batches of a struct, in the struct or below it.
func batchesIn(v Values) []*RecordBatch {
	for _, x := range v {
		if b, ok := x.([]*RecordBatch); ok {
			return b
		}
	}
	for _, x := range v {
		if xs, ok := x.([]any); ok {
			for _, e := range xs {
				if e, ok := e.(Values); ok {
					if b := batchesIn(e); b != nil {
						return b
					}
				}
			}
		}
	}
	return nil
}

// firstValues follows the first element of each array named.
func firstValues(v Values, arrays ...string) Values {
	for _, a := range arrays {
		v = v[a].([]any)[0].(Values)
	}
	return v
}

func batchBytes(t testing.TB, b *RecordBatch) []byte {
	t.Helper()
	c := testCatalog(t, "4.0")
	produce, _ := c.Lookup("Produce")
	body := storyExample(t, produce, false, produce.Version, sync.OnceValue(loadKnownFields))
	firstValues(body, "TopicData", "PartitionData")["Records"] = []*RecordBatch{b}
	f, err := c.Encode(Message{API: produce, Version: produce.Version, CorrelationID: 1, ClientID: "x", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	f.Root.Walk(func(n *Node) bool {
		if n.WireType == "record_batch" && out == nil {
			out = f.Bytes[n.Offset : n.Offset+n.Length]
		}
		return out == nil
	})
	return out
}

// storyChecker walks a message's values with its schema and collects the broken rules.
type storyChecker struct {
	s    *Story
	v    int16
	errs []string
}

func (ck *storyChecker) errf(path, format string, a ...any) {
	ck.errs = append(ck.errs, orBody(path)+": "+fmt.Sprintf(format, a...))
}

func (ck *storyChecker) walk(fields []*schemas.Field, vals Values, path string) {
	ck.structRules(vals, path)
	for _, f := range fields {
		x, ok := vals[f.Name]
		if !ok || x == nil {
			continue
		}
		p := join(path, f.Name)
		if f.Type.Prim == schemas.StructType {
			if f.Type.Array {
				for i, el := range x.([]any) {
					ck.walk(f.Struct.Fields, el.(Values), p+"["+strconv.Itoa(i)+"]")
				}
			} else {
				ck.walk(f.Struct.Fields, x.(Values), p)
			}
			continue
		}
		ck.field(f, x, p)
	}
}

// field checks one value against the story by its entity type and name.
func (ck *storyChecker) field(f *schemas.Field, x any, p string) {
	each := func(fn func(any)) {
		if xs, ok := x.([]any); ok {
			for _, e := range xs {
				fn(e)
			}
			return
		}
		fn(x)
	}
	switch f.EntityType {
	case "brokerId":
		each(func(e any) {
			if id := int32(e.(int64)); id >= 0 {
				if _, ok := ck.s.Broker(id); !ok {
					ck.errf(p, "broker %d is not in the story", id)
				}
			}
		})
	case "topicName":
		each(func(e any) {
			if name := e.(string); name != "" && name != "__cluster_metadata" {
				if _, ok := ck.s.Topic(name); !ok {
					ck.errf(p, "topic %q is not in the story", name)
				}
			}
		})
	case "producerId":
		each(func(e any) {
			if id := e.(int64); id >= 0 && id != ck.s.Producer.ID {
				ck.errf(p, "producer %d is not the story's %d", id, ck.s.Producer.ID)
			}
		})
	case "transactionalId":
		each(func(e any) {
			if id, ok := e.(string); ok && id != ck.s.Producer.TransactionalID {
				ck.errf(p, "transactional id %q is not the story's", id)
			}
		})
	}
	if f.Type.Prim == schemas.Int64 && !f.Type.Array && (strings.Contains(f.Name, "Timestamp") || strings.HasSuffix(f.Name, "TimeMs")) &&
		f.Name != "ThrottleTimeMs" && f.Name != "RetentionTimeMs" {
		if ts := x.(int64); ts > 0 && ts < ck.s.Clock {
			ck.errf(p, "timestamp %d is before the story begins (%d)", ts, ck.s.Clock)
		}
	}
}

// structRules checks the fields of one struct against each other and the story.
func (ck *storyChecker) structRules(v Values, path string) {
	ints := func(names ...string) ([]int32, bool) {
		for _, n := range names {
			if xs, ok := v[n].([]any); ok {
				out := make([]int32, len(xs))
				for i, x := range xs {
					out[i] = int32(x.(int64))
				}
				return out, true
			}
		}
		return nil, false
	}
	// A partition's replica sets.
	if replicas, ok := ints("ReplicaNodes", "Replicas"); ok {
		if isr, ok := ints("IsrNodes", "Isr"); ok {
			offline, _ := ints("OfflineReplicas")
			leader := int32(-1)
			if l, ok := v["LeaderId"].(int64); ok {
				leader = int32(l)
			} else if l, ok := v["Leader"].(int64); ok {
				leader = int32(l)
			}
			if err := ReplicaRules(leader, replicas, isr, offline); err != nil {
				ck.errf(path, "%v", err)
			}
		}
	}
	// A broker's address is the story's.
	for _, idName := range []string{"NodeId", "BrokerId", "LeaderId"} {
		id, ok := v[idName].(int64)
		host, hok := v["Host"].(string)
		if !ok || !hok || id < 0 {
			continue
		}
		b, known := ck.s.Broker(int32(id))
		if !known {
			ck.errf(path, "%s %d is not a broker of the story", idName, id)
		} else if port, ok := v["Port"].(int64); host != b.Host || ok && port != int64(b.Port) && port != int64(ck.s.ControllerPort) {
			ck.errf(path, "%s %d at %s:%v, the story says %s:%d", idName, id, host, v["Port"], b.Host, b.Port)
		}
	}
	// A topic's id is the story's.
	if id, ok := v["TopicId"].(UUID); ok && id != (UUID{}) {
		name, _ := v["Name"].(string)
		if name == "" {
			name, _ = v["Topic"].(string)
		}
		var topic StoryTopic
		for _, t := range ck.s.Topics {
			if t.UUID() == id {
				topic = t
			}
		}
		switch {
		case topic.Name == "":
			ck.errf(path, "topic id %s is not in the story", id)
		case name != "" && name != topic.Name:
			ck.errf(path, "topic id %s is %s's, not %s's", id, topic.Name, name)
		}
	}
	// Delegation token timestamps follow the token's lifetime.
	issue, iok := first(v, "IssueTimestampMs", "IssueTimestamp")
	expiry, eok := first(v, "ExpiryTimestampMs", "ExpiryTimestamp")
	maxTS, mok := first(v, "MaxTimestampMs", "MaxTimestamp")
	if iok && eok && mok {
		tk := ck.s.Token
		if !(issue < expiry && expiry <= maxTS) || expiry-issue != tk.RenewPeriodMs || maxTS-issue != tk.MaxLifetimeMs {
			ck.errf(path, "token issued %d, expires %d, at most %d: want issue + %d, issue + %d", issue, expiry, maxTS, tk.RenewPeriodMs, tk.MaxLifetimeMs)
		}
	}
	// Aborted transactions name transactional batches of the records beside them.
	if aborted, ok := v["AbortedTransactions"].([]any); ok {
		var batches []*RecordBatch
		for _, x := range v {
			if b, ok := x.([]*RecordBatch); ok {
				batches = b
			}
		}
		for i, a := range aborted {
			a := a.(Values)
			pid, first := a["ProducerId"].(int64), a["FirstOffset"].(int64)
			if !slices.ContainsFunc(batches, func(b *RecordBatch) bool {
				return b.ProducerID == pid && b.Attributes&attrTransactional != 0 && b.BaseOffset >= first
			}) {
				ck.errf(path, "AbortedTransactions[%d] names producer %d from offset %d: no transactional batch of it", i, pid, first)
			}
		}
	}
}

// list returns an array's elements (none when null or absent).
func list(v Values, name string) []any {
	xs, _ := v[name].([]any)
	return xs
}

func first(v Values, names ...string) (int64, bool) {
	for _, n := range names {
		if x, ok := v[n].(int64); ok {
			return x, true
		}
	}
	return 0, false
}

// message checks rules of one API's message.
func (ck *storyChecker) message(api string, resp bool, v Values) {
	switch {
	case api == "CreatePartitions" && !resp:
		for i, t := range list(v, "Topics") {
			t := t.(Values)
			topic, _ := ck.s.Topic(t["Name"].(string))
			if as, ok := t["Assignments"].([]any); ok && int64(len(as)) != t["Count"].(int64)-int64(len(topic.Partitions)) {
				ck.errf(fmt.Sprintf("Topics[%d]", i), "%d assignments for %d new partitions", len(as), t["Count"].(int64)-int64(len(topic.Partitions)))
			}
		}
	case api == "AlterUserScramCredentials" && !resp:
		for _, d := range list(v, "Deletions") {
			for _, u := range list(v, "Upsertions") {
				if n := d.(Values)["Name"]; n == u.(Values)["Name"] {
					ck.errf("Deletions", "user %v is deleted and upserted in one request", n)
				}
			}
		}
	case api == "UpdateFeatures" && !resp:
		for i, u := range list(v, "FeatureUpdates") {
			u := u.(Values)
			if t, ok := u["UpgradeType"].(int64); ok && t == 1 && u["MaxVersionLevel"].(int64) <= 25 {
				ck.errf(fmt.Sprintf("FeatureUpdates[%d]", i), "an upgrade to level %d, not above the finalized 25", u["MaxVersionLevel"])
			}
		}
	case (api == "ShareFetch" || api == "Fetch") && !resp:
		fetched := map[any]bool{}
		for _, t := range list(v, "Topics") {
			t := t.(Values)
			fetched[t["TopicId"]], fetched[t["Topic"]] = true, true
			for _, p := range list(t, "Partitions") {
				if acks, ok := p.(Values)["AcknowledgementBatches"].([]any); ok && len(acks) > 0 && v["ShareSessionEpoch"] == int64(0) {
					ck.errf("Topics", "acknowledgements in the request that opens the share session")
				}
			}
		}
		if forgotten, ok := v["ForgottenTopicsData"].([]any); ok {
			for _, f := range forgotten {
				f := f.(Values)
				if (f["TopicId"] != nil && fetched[f["TopicId"]]) || (f["Topic"] != nil && fetched[f["Topic"]]) {
					ck.errf("ForgottenTopicsData", "a topic fetched and forgotten in one request")
				}
			}
		}
	case api == "InitProducerId" && resp:
		if id, ok := v["OngoingTxnProducerId"].(int64); ok && id != -1 {
			ck.errf("OngoingTxnProducerId", "an ongoing transaction (%d), but the request kept no prepared transaction", id)
		}
	}
}

// FuzzParseStory reads arbitrary YAML as a story: it must not panic; an error names the file;
// a story it accepts keeps its rules.
func FuzzParseStory(f *testing.F) {
	data, err := fs.ReadFile(builtinExamples(), StoryFile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("clusterId: x\nclientId: y\nbrokers: [{id: 1, host: h, port: 1}]\ncontroller: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseStory(StoryFile, data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "kafka: "+StoryFile) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("accepted a story that breaks a rule: %v", err)
		}
	})
}

// TestNoPlaceholders: no example value of any version of any API of any release is the
// generator's last resort, the placeholder "example": every string field is named by the
// story's rules (its entity type, else its name and path), so releases not yet seen get
// story values too.
func TestNoPlaceholders(t *testing.T) {
	known := sync.OnceValue(loadKnownFields)
	for _, rel := range testReleases(t) {
		t.Run(rel, func(t *testing.T) {
			c := testCatalog(t, rel)
			for _, api := range c.APIs {
				lo, _ := api.Request.ValidVersions.Lowest()
				for v := lo; v <= api.Version; v++ {
					if !api.Request.ValidIn(v) {
						continue
					}
					for _, resp := range []bool{false, true} {
						var walk func(path string, x any)
						walk = func(path string, x any) {
							switch x := x.(type) {
							case string:
								if x == "example" {
									t.Errorf("%s v%d %s: %s is the placeholder %q", api.Name, v, side(resp), path, x)
								}
							case Values:
								for k, e := range x {
									walk(path+"."+k, e)
								}
							case map[string]any:
								for k, e := range x {
									walk(path+"."+k, e)
								}
							case []any:
								for i, e := range x {
									walk(fmt.Sprintf("%s[%d]", path, i), e)
								}
							case []Values:
								for i, e := range x {
									walk(fmt.Sprintf("%s[%d]", path, i), e)
								}
							case []string:
								for i, e := range x {
									walk(fmt.Sprintf("%s[%d]", path, i), e)
								}
							}
						}
						walk("", storyExample(t, api, resp, v, known))
					}
				}
			}
		})
	}
}
