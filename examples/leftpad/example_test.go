package leftpad_test

import (
	"fmt"
	"net/http/httptest"
	"os"

	"github.com/perflab/perflab/examples/leftpad"
)

func ExampleLeftpad() {
	fmt.Println(leftpad.Leftpad("test", 10, '*'))
	// Output: ******test
}

func ExampleNew() {
	svc := leftpad.New(leftpad.Options{Version: leftpad.V2})
	defer svc.Close()
	w := httptest.NewRecorder()
	svc.ServeHTTP(w, httptest.NewRequest("GET", "/v1/leftpad/?str=test&len=8&chr=-", nil))
	w.Body.WriteTo(os.Stdout)
	// Output: {"str":"----test"}
}
