package browser

import (
	"context"
	"time"

	"github.com/chromedp/chromedp"
)

// SetUploadFiles chooses files (paths on this machine) in the first file
// input matching the CSS selector, as a user picking them in the file
// dialog would: the input's change event fires.
func (p *Page) SetUploadFiles(selector string, files []string) error {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.SetUploadFiles(chromedp.CSS(selector), files))
	return err
}
