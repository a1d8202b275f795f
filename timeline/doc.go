// Package timeline draws execution traces as a zoomable timeline: the
// canvas drawing code (timeline.js) and the self-contained page of
// "perflab trace -timeline". Reading the trace and cutting it into tiles
// is package exectrace's; serving tiles for a visible window is package
// web's, which serves Assets; perflab investigate's report inlines Script.
// This keeps presentation apart from reading, as Go keeps
// internal/trace/traceviewer apart from internal/trace.
package timeline
