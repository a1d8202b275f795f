package term

import "strings"

// OneLine folds a message onto one line for a terminal or a log: its
// lines are joined with " ; " and every run of white space becomes one
// space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ; ")), " ")
}
