package kafka

// category is one section of the reference's index: a name and its APIs' keys, in the order
// the index shows them. This table is the project's own data; everything else in the
// catalogue comes from the schemas.
type category struct {
	name string
	keys []int16
}

// OtherCategory holds the APIs the table does not place (a newer release's additions); it
// comes last, sorted by key.
const OtherCategory = "Other"

// categories returns the index's categories in order.
func categories() []category {
	return []category{
		{"Records", []int16{0, 1, 2}},
		{"Consumer groups", []int16{8, 9, 10, 11, 12, 13, 14, 15, 16, 42, 47, 68, 69}},
		{"Share groups", []int16{76, 77, 78, 79, 83, 84, 85, 86, 87}},
		{"Transactions", []int16{22, 24, 25, 26, 27, 28, 61, 65, 66, 67}},
		{"Topics and partitions", []int16{3, 19, 20, 21, 23, 34, 35, 37, 43, 45, 46, 56, 73, 75}},
		{"Security and ACLs", []int16{17, 29, 30, 31, 36, 38, 39, 40, 41, 50, 51}},
		{"Configuration and quotas", []int16{32, 33, 44, 48, 49}},
		{"Cluster and KRaft", []int16{18, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63, 64, 70, 71, 72, 74, 80, 81, 82}},
	}
}
