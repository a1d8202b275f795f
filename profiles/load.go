package profiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/units"
)

// Options control how sources are loaded. The zero value is ready to use.
type Options struct {
	// Seconds is the duration of a CPU profile or trace fetched from a URL;
	// 0 means the server's default (or the URL's own ?seconds=N).
	Seconds int
	// Timeout bounds each fetch; 0 means 1.5 x Seconds + 5 s, else 60 s.
	Timeout time.Duration
	// MaxBytes caps the bytes the sources of one Load take in memory
	// together, as read and after decompression (see Budget); a source
	// that would take more than 4 x MaxBytes of memory to decode is
	// refused too. 0 means DefaultMaxBytes.
	MaxBytes int64
	// Budget, if not nil, is what reading takes memory from, instead of a
	// new Budget of MaxBytes for each call of Load, ReadSource, Parse or
	// ParseData: share one to hold several calls to one limit, as
	// "perflab fetch" does between ReadSource and ParseData.
	Budget *Budget
	// Stdin is what the source "-" reads; nil means there is none, and
	// "-" is an error.
	Stdin io.Reader
	// Progress, if not nil, is told how a fetch from a URL goes (see
	// FetchProgress), so that a command can show a countdown while the
	// server collects a CPU profile. Sources load concurrently: it may be
	// called from several goroutines at once.
	Progress func(FetchProgress)
	// Token, if not empty, is sent to URL sources and their symbol
	// servers as "Authorization: Bearer <Token>", unless Header has an
	// Authorization of its own. It never appears in errors.
	Token string
	// Header holds request headers sent to URL sources and their symbol
	// servers. Neither they nor Token follow a redirect to another host.
	Header http.Header

	// Base lists profiles whose values are subtracted from the sources',
	// as pprof's -base and -diff_base do.
	Base []string
	// DiffBase marks the Base samples with the label pprof::base=true, as
	// pprof's -diff_base does: they are kept apart from the sources'
	// samples, and reports compute percentages relative to the base's
	// total. It is meaningless without Base.
	DiffBase bool
	// Normalize scales the sources so that their total equals the base's
	// before the base is subtracted, as pprof's -normalize does with a base.
	Normalize bool

	// Resolve, if not nil, is asked first about every source and base:
	// when it claims one (ok), the profile it returns is that source's,
	// read no other way, and its error the source's error. perflab's
	// commands set it to read selections of a store, such as
	// {service_name="api"}, when -store or $PERFLAB_STORE is given.
	// Sources load concurrently: it may be called from several goroutines
	// at once. The profile it returns must be valid and not shared.
	Resolve func(ctx context.Context, source string) (p *profile.Profile, ok bool, err error)

	// Reserve, if not nil, is told what decoding a source will allocate
	// (estimated from its uncompressed bytes) before ParseData decodes it;
	// an error it returns is ParseData's, wrapped. A server that decodes
	// many requests' profiles at once takes it from one memory budget.
	Reserve func(bytes int64) error

	// Text, if not nil, tells Fetch what a source that is neither a
	// profile nor a trace holds, such as a goroutine dump: a description
	// for messages ("goroutine dump of 12 goroutines"), or ok false to
	// refuse it. Fetch saves what it accepts as it came (Kind "text").
	Text func(data []byte) (what string, ok bool)
	// Fetched, if not nil, is called by Load with the profile it returns
	// when one of the sources or bases came from a URL, so that the
	// caller may keep a copy, as go tool pprof keeps every profile it
	// fetches (see KeepDir and Keep).
	Fetched func(p *profile.Profile)
}

// DefaultMaxBytes is the size above which a source is refused: 1 GiB. It
// bounds memory on hostile input (a gzip bomb inflates to at most this
// much, and decoding may take at most 4 GiB) while leaving room for the
// largest profiles met in practice, whose uncompressed profile.proto is a
// few hundred megabytes.
const DefaultMaxBytes = 1 << 30

// memoryBudget bounds the memory decoding may take, as a multiple of the
// size limit; see decodeCost.
const memoryBudget = 4

// maxBytes returns the effective size limit.
func (o Options) maxBytes() int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return DefaultMaxBytes
}

// Load reads every source (a file name or a URL, see ReadSource) and
// returns them merged into one profile, as "go tool pprof SOURCE..." would
// see them:
//
//   - a source without mappings gets one empty mapping, as pprof gives it;
//   - if the first of several sources is an executable, it is not a
//     profile but the binary used to symbolize the others ("pprof BINARY
//     PROFILE"); see Symbolize;
//   - the sources are merged (Merge), then opts.Base is applied (ApplyBase);
//   - unsymbolized addresses are symbolized from that binary or from
//     mapping files that exist locally, else, for profiles fetched from a
//     URL, by the server's /debug/pprof/symbol;
//   - function names are demangled and simplified as pprof displays them
//     (mangled C++ names, and (...) and <...> cut out of names that look
//     like demangled C++; Go names are kept);
//   - frames the profile declares uninteresting (legacy heap profiles'
//     allocator frames) are pruned.
//
// Any error names the source it comes from and fits on one line.
func Load(ctx context.Context, sources []string, opts Options) (p *profile.Profile, err error) {
	defer func() {
		if err != nil {
			p = nil
		}
	}()
	defer recoverAs(&err, "loading "+sourcesName(sources)+": %s")
	if len(sources) == 0 {
		return nil, errors.New("no profile given")
	}
	opts.Budget = opts.budget() // one for all sources
	binary := ""
	if isExecutable(sources[0]) {
		if len(sources) == 1 {
			return nil, fmt.Errorf("%s: an executable, not a profile; name the profile after it", sources[0])
		}
		binary, sources = sources[0], sources[1:]
	}
	all := append(append([]string(nil), sources...), opts.Base...)
	ps, remote, err := loadAll(ctx, all, binary, opts)
	if err != nil {
		return nil, err
	}
	if p, err = combine(ps[:len(sources)], ps[len(sources):], sources, opts); err != nil {
		return nil, err
	}
	if p, err = finish(ctx, p, sources, binary, opts, len(all) > 1); err == nil && remote && opts.Fetched != nil {
		opts.Fetched(p)
	}
	return p, err
}

// combine merges the sources' profiles, then subtracts the base's.
func combine(ps, bases []*profile.Profile, sources []string, opts Options) (*profile.Profile, error) {
	p, err := Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("merging %s: %w", sourcesName(sources), err)
	}
	if len(bases) == 0 {
		return p, nil
	}
	base, err := Merge(bases)
	if err != nil {
		return nil, fmt.Errorf("merging base %s: %w", sourcesName(opts.Base), err)
	}
	if opts.Normalize {
		if err := p.Normalize(base); err != nil {
			return nil, fmt.Errorf("normalizing to base %s: %w", sourcesName(opts.Base), err)
		}
	}
	if p, err = ApplyBase(p, base, opts.DiffBase); err != nil {
		return nil, fmt.Errorf("applying base %s: %w", sourcesName(opts.Base), err)
	}
	return p, nil
}

// finish symbolizes the combined profile (binary, if not "", is the one
// the user named), prunes the frames it declares uninteresting and
// validates it. A single source that none of this
// changed is not validated again: decode returns valid profiles only.
func finish(ctx context.Context, p *profile.Profile, sources []string, binary string, opts Options, merged bool) (*profile.Profile, error) {
	funcs := len(p.Function)
	symbolizeLocal(p, binary)
	if err := symbolizeRemote(ctx, p, opts); err != nil {
		return nil, err
	}
	demangleNames(p)
	changed := merged || len(p.Function) != funcs || p.DropFrames != ""
	if err := p.RemoveUninteresting(); err != nil {
		return nil, fmt.Errorf("%s: %w", sourcesName(sources), err)
	}
	unmarkRemote(p)
	if !changed {
		return p, nil
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("%s: invalid profile: %w", sourcesName(sources), err)
	}
	return p, nil
}

// maxConcurrentSources bounds how many sources are read at once: enough to
// collect several CPU profiles in parallel, few enough to bound memory.
const maxConcurrentSources = 8

// loadAll reads and parses the sources concurrently, keeping their order,
// and says whether one came from a URL. The first failure cancels the
// other fetches and is the error returned.
func loadAll(ctx context.Context, sources []string, binary string, opts Options) (ps []*profile.Profile, remote bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ps = make([]*profile.Profile, len(sources))
	sem := make(chan struct{}, maxConcurrentSources)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for i, src := range sources {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			p, fromURL, err := loadOne(ctx, src, binary, opts)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && first == nil {
				first = err
				cancel()
			}
			ps[i] = p
			remote = remote || fromURL
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, false, first
	}
	return ps, remote, nil
}

// loadOne reads and parses one source and prepares its mappings for
// symbolization as pprof's driver does; fromURL says whether it was
// fetched.
func loadOne(ctx context.Context, src, binary string, opts Options) (p *profile.Profile, fromURL bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("%s: %w", src, err)
	}
	p, u, err := readProfile(ctx, src, opts)
	if err != nil {
		return nil, false, err
	}
	ensureMapping(p)
	if binary != "" {
		p.Mapping[0].File = binary
	}
	if u != "" {
		markRemote(p, u)
	}
	return p, u != "", nil
}

// readProfile returns the profile of one source, from Options.Resolve if
// it claims the source, else read and decoded, with the URL it was
// fetched from, if any.
func readProfile(ctx context.Context, src string, opts Options) (*profile.Profile, string, error) {
	if opts.Resolve != nil {
		p, ok, err := opts.Resolve(ctx, src)
		switch {
		case ok && err != nil:
			return nil, "", fmt.Errorf("%s: %w", src, err)
		case ok:
			return p, "", nil
		}
	}
	data, u, err := readSource(ctx, src, opts)
	if err != nil {
		return nil, "", err
	}
	if err := ctx.Err(); err != nil { // reading a file or stdin does not watch ctx
		return nil, "", fmt.Errorf("%s: %w", src, err)
	}
	p, err := ParseData(src, data, opts)
	if err != nil {
		return nil, "", opts.redact(err) // a response may repeat the token
	}
	return p, u, nil
}

// ensureMapping gives a profile without mappings one empty mapping, as
// pprof does, so that a binary can symbolize it: Go's legacy text profiles
// carry none.
func ensureMapping(p *profile.Profile) {
	if len(p.Mapping) > 0 {
		return
	}
	m := &profile.Mapping{ID: 1}
	p.Mapping = []*profile.Mapping{m}
	for _, l := range p.Location {
		l.Mapping = m
	}
}

// Parse decodes one profile read from r; name identifies it in errors.
// The input may be profile.proto, gzipped or not, or one of the legacy
// text formats. It is read into memory once, and with its decompression
// takes at most opts.MaxBytes (or what opts.Budget has left).
func Parse(name string, r io.Reader, opts Options) (*profile.Profile, error) {
	opts.Budget = opts.budget()
	data, err := readBudget(name, r, -1, opts.Budget)
	if err != nil {
		return nil, err
	}
	return ParseData(name, data, opts)
}

// ParseData decodes one profile held in data; name identifies it in
// errors. Gzipped data is decompressed, taking at most opts.MaxBytes (or
// what opts.Budget has left).
func ParseData(name string, data []byte, opts Options) (*profile.Profile, error) {
	b := opts.budget()
	b.join(name)
	raw, err := decompress(data, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cost := estimateCost(raw)
	if cost > memoryBudget*opts.maxBytes() {
		return nil, fmt.Errorf("%s: %w: decoding would take about %s of memory, more than %d x the limit of %s (raise it with -max_bytes)",
			name, ErrTooLarge, units.GiB(cost), memoryBudget, units.ExactBytes(opts.maxBytes()))
	}
	if opts.Reserve != nil {
		if err := opts.Reserve(cost); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	p, err := safeDecode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// sourcesName names a list of sources in an error message.
func sourcesName(sources []string) string {
	return strings.Join(sources, ", ")
}
