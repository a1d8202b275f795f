// Package leftpad is the left-pad microservice from Artem Krylysov's
// "Profiling and optimizing Go web applications": GET
// /v1/leftpad/?str=test&len=50&chr=* answers {"str":"**...*test"}, every
// request is counted and timed to StatsD over UDP and logged with its URL,
// client IP and user agent.
//
// It comes in the article's two versions. V1 is the naive one: padding by
// string concatenation in a loop, a StatsD client built on fmt.Sprintf
// with a new strings.Replacer per packet, the query parsed into a map, the
// reply through a json.Encoder, and two unbuffered log lines per request.
// V2 is the tuned one: padding written once into a pooled buffer, StatsD
// packets appended into a pooled buffer, the query scanned in place, and one
// buffered log line per request, flushed every second and on Close. Both
// answer every request identically; V2 allocates a fraction as much.
package leftpad
