package ingest

import (
	"strings"

	"github.com/perflab/perflab/store"
)

// A Name is what the name parameter of /ingest says: the application, the
// kind its old-style suffix names (APP.cpu, APP.alloc_space, ...), and the
// labels in braces.
type Name struct {
	// App is the application's name, without a known kind suffix; it
	// becomes the series' service_name unless Labels have one.
	App string
	// Kind is the __name__ that a kind suffix of the application's name
	// says, such as process_cpu for APP.cpu, or "". A profile's own sample
	// types decide its kind; Kind only tells the mutex and block profiles
	// apart, whose sample types are the same.
	Kind string
	// Labels are the labels in braces, sorted, without those whose value
	// is empty and those whose name begins with "__" (Pyroscope's private
	// labels, such as the SDK's __session_id__).
	Labels store.Labels
}

// kindSuffixes maps the suffixes of old-style application names, and
// perflab's kind names (see store.Kinds), to the series' __name__.
var kindSuffixes = map[string]string{
	"cpu":            "process_cpu",
	"alloc_objects":  "memory",
	"alloc_space":    "memory",
	"inuse_objects":  "memory",
	"inuse_space":    "memory",
	"allocs":         "memory",
	"heap":           "memory",
	"goroutine":      "goroutines",
	"goroutines":     "goroutines",
	"mutex":          "mutex",
	"mutex_count":    "mutex",
	"mutex_duration": "mutex",
	"block":          "block",
	"block_count":    "block",
	"block_duration": "block",
	"wall":           "wall",
	"goroutineleak":  "goroutineleak",
}

// maxNameLabels bounds the labels ParseName reads, so that a hostile name
// costs no more than this to refuse; the store's Limits are far lower.
const maxNameLabels = 1000

// ParseName reads the name parameter of /ingest as Pyroscope does:
// APP{key=value,key2=value2}, APP alone, or APP.KIND{...} with an
// old-style kind suffix. APP may hold letters, digits and - . / _; keys
// are label names ([a-zA-Z_][a-zA-Z0-9_.]*); values run to the next , or
// }, and spaces around keys and values are dropped.
func ParseName(s string) (Name, error) {
	app, rest, braces := strings.Cut(s, "{")
	app = strings.TrimSpace(app)
	if err := checkApp(app); err != nil {
		return Name{}, err
	}
	n := Name{App: app}
	if i := strings.LastIndexByte(app, '.'); i > 0 {
		if kind, ok := kindSuffixes[app[i+1:]]; ok {
			n.App, n.Kind = app[:i], kind
		}
	}
	if !braces {
		return n, nil
	}
	body, tail, closed := strings.Cut(rest, "}")
	if !closed {
		return Name{}, invalidf("name %q: no } after the labels", clip(s))
	}
	if strings.TrimSpace(tail) != "" {
		return Name{}, invalidf("name %q: text after }", clip(s))
	}
	labels, err := parseNameLabels(body)
	if err != nil {
		return Name{}, invalidf("name %q: %s", clip(s), err.Error())
	}
	n.Labels = labels
	return n, nil
}

// checkApp checks an application name as Pyroscope does.
func checkApp(app string) error {
	if app == "" {
		return invalidf("name: the application name before { is empty")
	}
	for i := 0; i < len(app); i++ {
		c := app[i]
		if !(c == '-' || c == '/' || c == '.' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return invalidf("name %q: character %q not allowed in an application name (letters, digits, - . / _)", clip(app), c)
		}
	}
	return nil
}

// parseNameLabels reads key=value pairs separated by commas.
func parseNameLabels(body string) (store.Labels, error) {
	var ls store.Labels
	for pair := range strings.SplitSeq(body, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		key, value, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, invalidf("label %q: no =", clip(strings.TrimSpace(pair)))
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !store.ValidLabelName(key) {
			return nil, invalidf("label name %q: not [a-zA-Z_][a-zA-Z0-9_.]*", clip(key))
		}
		if strings.HasPrefix(key, "__") || value == "" {
			continue
		}
		if len(ls) == maxNameLabels {
			return nil, invalidf("more than %d labels", maxNameLabels)
		}
		ls = append(ls, store.Label{Name: key, Value: value})
	}
	return ls.Sort(), nil
}
