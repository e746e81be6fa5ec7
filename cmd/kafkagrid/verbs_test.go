package main

import (
	"regexp"
	"strings"
	"testing"
)

var flagLine = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)

// TestEveryVerb holds every verb to the same rules, so that a new verb cannot miss them: help
// asked for goes to stdout with status 0 (by -h and by "help VERB"), an unknown flag is a usage
// error on stderr (status 2) that points to -h and suggests the flag meant.
func TestEveryVerb(t *testing.T) {
	for _, v := range verbs() {
		t.Run(v.name, func(t *testing.T) {
			out, errs, code := runCmd(t, v.name, "-h")
			if code != 0 || errs != "" || !strings.HasPrefix(out, "Usage: kafkagrid "+v.name) {
				t.Fatalf("-h: exit %d, stderr %q, stdout %.80q", code, errs, out)
			}
			if again, _, code := runCmd(t, "help", v.name); code != 0 || again != out {
				t.Errorf("help %s: exit %d, not the -h text", v.name, code)
			}
			out2, errs, code := runCmd(t, v.name, "-no-such-flag")
			if code != 2 || out2 != "" || !strings.Contains(errs, "kafkagrid "+v.name+" -h lists the flags") {
				t.Errorf("unknown flag: exit %d, stdout %q, stderr %q", code, out2, errs)
			}
			if m := flagLine.FindStringSubmatch(out); m != nil && len(m[1]) > 3 {
				typo := m[1][:len(m[1])-1] + "x"
				if _, errs, code := runCmd(t, v.name, "-"+typo); code != 2 || !strings.Contains(errs, "did you mean -"+m[1]+"?") {
					t.Errorf("-%s: exit %d, stderr %q; want a suggestion of -%s", typo, code, errs, m[1])
				}
			}
		})
	}
}

func TestTopLevel(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		code      int
		out, errs string // in stdout, in stderr
		emptyOut  bool
		emptyErrs bool
	}{
		{[]string{"-h"}, 0, "Verbs:", "", false, true},
		{[]string{"help"}, 0, "Verbs:", "", false, true},
		{nil, 2, "", "no verb given", true, false},
		{[]string{"biuld"}, 2, "", `unknown verb "biuld"; did you mean build?`, true, false},
		{[]string{"frobnicate"}, 2, "", `unknown verb "frobnicate" (kafkagrid -h lists the verbs)`, true, false},
		{[]string{"version"}, 0, "kafkagrid ", "", false, true},
	} {
		out, errs, code := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errs) ||
			tc.emptyOut && out != "" || tc.emptyErrs && errs != "" {
			t.Errorf("%v: exit %d, stdout %.60q, stderr %.100q", tc.args, code, out, errs)
		}
	}
}
