package leftpad

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// A StatsD client sends metrics in the StatsD line protocol
// ("namespace.stat:value|kind|@rate"), one packet per Write to its writer,
// typically a UDP connection. Send errors are returned, not retried:
// metrics are best effort.
type StatsD struct {
	Namespace  string
	SampleRate float64 // appended as |@rate when in (0, 1)
	Version    Version // V1 formats with fmt; V2 appends into a pooled buffer
	w          io.Writer
}

// NewStatsD returns a client writing packets to w.
func NewStatsD(w io.Writer, namespace string, sampleRate float64, v Version) *StatsD {
	return &StatsD{Namespace: namespace, SampleRate: sampleRate, Version: v, w: w}
}

// Send sends one metric: kind is "c" for a counter, "ms" for a timing.
func (s *StatsD) Send(stat, kind string, delta float64) error {
	if s.Version == V1 {
		return s.sendV1(stat, kind, delta)
	}
	return s.sendV2(stat, kind, delta)
}

// sendV1 is the article's first StatsD client: a Sprintf per part and a
// new Replacer per packet.
func (s *StatsD) sendV1(stat, kind string, delta float64) error {
	buf := fmt.Sprintf("%s.", s.Namespace)
	trimmedStat := strings.NewReplacer(":", "_", "|", "_", "@", "_").Replace(stat)
	buf += fmt.Sprintf("%s:%s|%s", trimmedStat, strconv.FormatFloat(delta, 'f', -1, 64), kind)
	if s.SampleRate > 0 && s.SampleRate < 1 {
		buf += fmt.Sprintf("|@%s", strconv.FormatFloat(s.SampleRate, 'f', -1, 64))
	}
	_, err := s.w.Write([]byte(buf))
	return err
}

// packets holds reusable packet buffers for sendV2.
var packets = sync.Pool{New: func() any { b := make([]byte, 0, 128); return &b }}

// sendV2 writes the same packet as sendV1, appended into a pooled buffer.
func (s *StatsD) sendV2(stat, kind string, delta float64) error {
	p := packets.Get().(*[]byte)
	buf := append((*p)[:0], s.Namespace...)
	buf = append(buf, '.')
	for i := 0; i < len(stat); i++ {
		c := stat[i]
		if c == ':' || c == '|' || c == '@' {
			c = '_'
		}
		buf = append(buf, c)
	}
	buf = append(buf, ':')
	buf = strconv.AppendFloat(buf, delta, 'f', -1, 64)
	buf = append(buf, '|')
	buf = append(buf, kind...)
	if s.SampleRate > 0 && s.SampleRate < 1 {
		buf = append(buf, '|', '@')
		buf = strconv.AppendFloat(buf, s.SampleRate, 'f', -1, 64)
	}
	_, err := s.w.Write(buf)
	*p = buf
	packets.Put(p)
	return err
}
