package capture

import "strconv"

// plural counts n things: "1 frame", "2 frames".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// were is the verb of a count of n things: "was" for one, "were" for more.
func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// does is the verb of a count of n things: "does" for one, "do" for more.
func does(n int) string {
	if n == 1 {
		return "does"
	}
	return "do"
}

// lies is the verb of a count of n things: "lies" for one, "lie" for more.
func lies(n int) string {
	if n == 1 {
		return "lies"
	}
	return "lie"
}
