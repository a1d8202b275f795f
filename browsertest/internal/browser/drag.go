package browser

import (
	"context"
	"time"

	"github.com/chromedp/chromedp"
)

// Drag presses the left mouse button at (x0, y0), in CSS pixels of the
// viewport, moves to (x1, y1) in steps and releases it there, as a user
// selecting a range on a chart would: the page gets real mousedown,
// mousemove and mouseup events.
func (p *Page) Drag(x0, y0, x1, y1 float64) error {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	const n = 8
	for i := 1; i <= n; i++ {
		x, y := x0+(x1-x0)*float64(i)/n, y0+(y1-y0)*float64(i)/n
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	return chromedp.Do(ctx, steps...)
}
