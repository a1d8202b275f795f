package fleet

import (
	"net/http"

	"github.com/perflab/perflab/internal/term"
)

// fail answers with status and err's message on one line.
func fail(w http.ResponseWriter, status int, err error) {
	http.Error(w, term.OneLine(err.Error()), status)
}
