package settings_test

import (
	"flag"
	"fmt"
	"net/url"
	"os"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

// Settings given as pprof's flags, kept in a web UI's URL with pprof's
// parameter names.
func ExampleRegisterFlags() {
	fs := flag.NewFlagSet("top", flag.ContinueOnError)
	o := report.DefaultOptions()
	resolve := settings.RegisterFlags(fs, &o)
	fs.Parse([]string{"-focus=main", "-lines", "-cum", "-nodecount=20"})
	if err := resolve(os.Stderr); err != nil {
		fmt.Println(err)
	}
	q := url.Values{}
	settings.EncodeURL(&o, q)
	fmt.Println(q.Encode())
	// Output:
	// f=main&g=lines&n=20&sort=cum
}
