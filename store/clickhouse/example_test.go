package clickhouse_test

import (
	"fmt"

	"github.com/perflab/perflab/store/clickhouse"
)

func ExampleParseURL() {
	cfg, err := clickhouse.ParseURL("clickhouse://ingest:s3cret@ch1:8123,ch2/perflab?cluster=fleet&timeout=30s")
	if err != nil {
		panic(err)
	}
	fmt.Println(cfg.Shards, cfg.Database, cfg.Cluster, cfg.User, cfg.Timeout)
	fmt.Println(cfg)
	// Output:
	// [ch1:8123 ch2:8123] perflab fleet ingest 30s
	// clickhouse://ingest:xxxxx@ch1:8123,ch2:8123/perflab?cluster=fleet&timeout=30s
}
