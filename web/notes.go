package web

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/perflab/perflab/internal/httpguard"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/internal/term"
)

// The source view's compiler notes: /ui/api/notes builds the packages that
// hold the listed functions with the compiler's diagnostics (package
// compilenotes) and returns each listed line's notes. A build takes
// seconds, so the page asks only when the notes are turned on, and each
// set of packages is built once per server.

// maxBuildTime bounds one build of the notes.
const maxBuildTime = 5 * time.Minute

// notesAnswer is /ui/api/notes's JSON: the notes of the listed lines, or
// why there are none, in one line.
type notesAnswer struct {
	Error string     `json:"error,omitempty"`
	Notes []lineNote `json:"notes"`
}

type lineNote struct {
	Func int      `json:"func"` // index in the source view's functions
	Line int      `json:"line"`
	Text []string `json:"text"` // as list -compiler prints them
}

// noteBuild is one build of a set of package directories, shared by the
// requests that need it.
type noteBuild struct {
	done  chan struct{}
	notes *compilenotes.Notes
	err   error
}

// noteBuilds are the builds a server has started, by directory set.
type noteBuilds struct {
	mu     sync.Mutex
	builds map[string]*noteBuild
	build  func(ctx context.Context, dirs []string) (*compilenotes.Notes, error)
}

// get returns the notes of dirs, building them once; a build that was
// cancelled is started anew by the next request.
func (nb *noteBuilds) get(ctx context.Context, dirs []string) (*compilenotes.Notes, error) {
	k := strings.Join(dirs, "\x00")
	nb.mu.Lock()
	if nb.builds == nil {
		nb.builds = map[string]*noteBuild{}
	}
	b, ok := nb.builds[k]
	if !ok {
		b = &noteBuild{done: make(chan struct{})}
		nb.builds[k] = b
		go func() {
			bctx, cancel := context.WithTimeout(context.Background(), maxBuildTime)
			defer cancel()
			build := nb.build
			if build == nil {
				build = func(ctx context.Context, dirs []string) (*compilenotes.Notes, error) {
					return compilenotes.Build(ctx, dirs, compilenotes.Options{})
				}
			}
			b.notes, b.err = build(bctx, dirs)
			close(b.done)
		}()
	}
	nb.mu.Unlock()
	select {
	case <-b.done:
		return b.notes, b.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// notes answers /ui/api/notes for the source view of the request's
// settings. A source tree that is missing or does not build is not the
// request's fault: the answer is 200 with the reason in "error".
// Building runs the go command on this machine, so it is done only for
// clients on this machine, decided by the connection's peer address (not
// the Host header, which the client chooses), even when -http serves
// others.
func (s *Server) notes(w http.ResponseWriter, r *http.Request) {
	if !httpguard.LoopbackPeer(r) {
		http.Error(w, "compiler notes are built only for clients on this machine (a loopback peer address)", http.StatusForbidden)
		return
	}
	q := r.URL.Query()
	o, err := s.options(q)
	sym := symbol(q)
	if err == nil && sym == "" {
		err = errors.New("choose functions with the focus regexp (URL parameter f)")
	}
	var v *srcView
	if err == nil {
		s.compute.Lock()
		v, err = s.sourceModel(o, sym)
		s.compute.Unlock()
	}
	if err != nil {
		http.Error(w, "notes: "+err.Error(), http.StatusBadRequest)
		return
	}
	ans := notesAnswer{Notes: []lineNote{}}
	dirs := noteDirs(r.Context(), v)
	if len(dirs) == 0 {
		ans.Error = "no compiler notes: the source of these functions is not on this machine (outside GOROOT and the module cache)"
	} else if ns, err := s.noteBuilds.get(r.Context(), dirs); err != nil {
		ans.Error = "no compiler notes: " + term.OneLine(err.Error())
	} else {
		ans.Notes = lineNotes(v, ns)
	}
	b, err := json.Marshal(ans)
	if err != nil {
		http.Error(w, "notes: "+err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, r, http.StatusOK, "application/json", b)
}

// noteDirs returns the package directories of the view's functions that
// are the user's code.
func noteDirs(ctx context.Context, v *srcView) []string {
	local := compilenotes.LocalFiles(ctx, compilenotes.Options{})
	seen := map[string]bool{}
	var dirs []string
	for _, f := range v.Funcs {
		if f.Path == "" || !local(f.Path) {
			continue
		}
		if d := filepath.Dir(f.Path); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs
}

// lineNotes returns the notes of the view's lines.
func lineNotes(v *srcView, ns *compilenotes.Notes) []lineNote {
	out := []lineNote{}
	for i, f := range v.Funcs {
		for _, l := range f.Lines {
			if text := ns.Lines(f.Path, l.Line); len(text) > 0 {
				out = append(out, lineNote{Func: i, Line: l.Line, Text: text})
			}
		}
	}
	return out
}
