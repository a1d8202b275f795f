package profiles

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// Profiles fetched from a URL without symbols (legacy text with addresses)
// are symbolized by the server that sent them, as go tool pprof does: the
// addresses are POSTed to the server's /debug/pprof/symbol, which
// net/http/pprof answers with one "ADDRESS NAME" line each. Function names
// come back, not files or lines.

// markRemote records in p that it came from URL src: each mapping with
// neither file nor build ID gets src as its file until symbolizeRemote has
// used it and unmarkRemote has cleared it, as pprof's driver does.
func markRemote(p *profile.Profile, src string) {
	for _, m := range p.Mapping {
		if m.File == "" && m.BuildID == "" {
			m.File = src
		}
	}
}

// unmarkRemote clears the file names markRemote set.
func unmarkRemote(p *profile.Profile) {
	for _, m := range p.Mapping {
		if m.BuildID == "" && isURL(m.File) {
			m.File = ""
		}
	}
}

// symbolizeRemote symbolizes the unsymbolized mappings marked by
// markRemote from the server they came from.
func symbolizeRemote(ctx context.Context, p *profile.Profile, opts Options) error {
	for _, m := range p.Mapping {
		if m.HasFunctions || !isURL(m.File) {
			continue
		}
		if err := symbolizeFrom(ctx, symbolURL(m.File), m, p, opts); err != nil {
			return err
		}
		m.HasFunctions = true
	}
	return nil
}

// symbolURL returns the symbol service next to a profile's URL.
func symbolURL(source string) string {
	u, err := url.Parse(source)
	if err != nil {
		return ""
	}
	if strings.Contains(u.Path, "/debug/pprof/") || hasGperftoolsSuffix(u.Path) {
		u.Path = path.Clean(u.Path + "/../symbol")
	} else {
		u.Path = path.Clean(u.Path + "/../symbolz")
	}
	u.RawQuery = ""
	return u.String()
}

// hasGperftoolsSuffix reports whether a path names a gperftools profile
// handler, whose symbol service is a sibling "symbol".
func hasGperftoolsSuffix(p string) bool {
	for _, s := range []string{"/pprof/heap", "/pprof/growth", "/pprof/profile", "/pprof/pmuprofile", "/pprof/contention"} {
		if strings.HasSuffix(p, s) {
			return true
		}
	}
	return false
}

var symbolLine = regexp.MustCompile(`(0x[[:xdigit:]]+)\s+(.*)`)

// symbolizeFrom asks symURL for the names of m's unsymbolized addresses
// and gives each such location one line naming its function.
func symbolizeFrom(ctx context.Context, symURL string, m *profile.Mapping, p *profile.Profile, opts Options) error {
	var addrs []string
	for _, l := range p.Location {
		if l.Mapping == m && l.Address != 0 && len(l.Line) == 0 {
			addrs = append(addrs, fmt.Sprintf("%#x", l.Address))
		}
	}
	if len(addrs) == 0 {
		return nil
	}
	body, err := postSymbols(ctx, symURL, strings.Join(addrs, "+"), opts)
	if err != nil {
		return err
	}
	lines := map[uint64]profile.Line{}
	funcs := map[string]*profile.Function{}
	// Like pprof, read only whole lines: a last line without its newline
	// is ignored.
	text := string(body)
	for {
		line, rest, ok := strings.Cut(text, "\n")
		if !ok {
			break
		}
		text = rest
		f := symbolLine.FindStringSubmatch(line)
		if f == nil {
			continue
		}
		addr, err := strconv.ParseUint(f[1], 0, 64)
		if err != nil {
			continue
		}
		fn := funcs[f[2]]
		if fn == nil {
			fn = &profile.Function{ID: uint64(len(p.Function)) + 1, Name: f[2], SystemName: f[2]}
			funcs[f[2]] = fn
			p.Function = append(p.Function, fn)
		}
		lines[addr] = profile.Line{Function: fn}
	}
	for _, l := range p.Location {
		if line, ok := lines[l.Address]; ok && l.Mapping == m {
			l.Line = []profile.Line{line}
		}
	}
	return nil
}

// postSymbols sends a symbol service the addresses in query, joined by
// "+", and returns its answer.
func postSymbols(ctx context.Context, symURL, query string, opts Options) ([]byte, error) {
	body, err := postSymbolsRaw(ctx, symURL, query, opts)
	return body, opts.redact(err)
}

func postSymbolsRaw(ctx context.Context, symURL, query string, opts Options) ([]byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, defaultTimeout, errTimeout)
	defer cancel()
	name := redactURL(symURL)
	client, req, err := newRequest(ctx, http.MethodPost, symURL, strings.NewReader(query), opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fetchError(ctx, name, defaultTimeout, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: symbolizing: server returned %s%s", name, resp.Status, serverMessage(resp.Body))
	}
	return readCapped(name, resp.Body, opts.maxBytes())
}
