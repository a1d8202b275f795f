package leftpad

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// A bufferedLog is V2's request log: lines are appended into a 16 KiB
// buffer, written out when it fills, every flush interval and on Close,
// instead of one write system call per line.
type bufferedLog struct {
	mu   sync.Mutex
	w    *bufio.Writer
	line []byte
	stop chan struct{}
	done chan struct{}
	once sync.Once
	err  error
}

func newBufferedLog(w io.Writer, every time.Duration) *bufferedLog {
	l := &bufferedLog{w: bufio.NewWriterSize(w, 16<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushEvery(every)
	return l
}

func (l *bufferedLog) flushEvery(every time.Duration) {
	defer close(l.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			l.mu.Lock()
			l.flush()
			l.mu.Unlock()
		case <-l.stop:
			return
		}
	}
}

// flush writes the buffer out; l.mu must be held. The first error is kept.
func (l *bufferedLog) flush() {
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
}

// Request logs one request as V1's first line does:
// "2006/01/02 15:04:05 url=... ip=... user_agent=\"...\"".
func (l *bufferedLog) Request(t time.Time, r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := t.AppendFormat(l.line[:0], "2006/01/02 15:04:05 ")
	b = append(b, "url="...)
	b = append(b, r.RequestURI...)
	b = append(b, " ip="...)
	b = append(b, clientIP(r)...)
	b = append(b, " user_agent="...)
	b = strconv.AppendQuote(b, r.UserAgent())
	b = append(b, '\n')
	l.w.Write(b)
	l.line = b
}

// Close stops the periodic flushing and flushes what is left, returning
// the first write error the log met.
func (l *bufferedLog) Close() error {
	l.once.Do(func() { close(l.stop) })
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush()
	return l.err
}
