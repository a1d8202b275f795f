module github.com/perflab/perflab

go 1.26.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/google/pprof v0.0.0-20260906184651-6331bc6350fe
	github.com/klauspost/compress v1.20.3
	golang.org/x/arch v0.23.0
	golang.org/x/exp v0.0.0-20260824195058-e88cd73687aa
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
